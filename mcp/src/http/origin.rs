//! Which browser origins and which `Host` names may reach the server: the rule against
//! cross-site requests and DNS rebinding, checked before anything else answers (the task
//! layer answers some requests itself, so the check cannot be left to the SDK).

/// An origin as compared: scheme and host in lower case, the port explicit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Origin {
    scheme: String,
    host: String,
    port: Option<u16>,
}

impl Origin {
    /// `text` (`scheme://host[:port]`, as an `Origin` header or `--allow-origin` has it), or
    /// `None` when it is not one (`null` included).
    pub(super) fn parse(text: &str) -> Option<Origin> {
        let (scheme, authority) = text.split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        let scheme_ok = !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
        if !scheme_ok || authority.is_empty() || authority.contains(['/', '?', '#', '@', ' ']) {
            return None;
        }
        let (host, port) = split_port(authority)?;
        let port = port.or(match scheme.as_str() {
            "http" => Some(80),
            "https" => Some(443),
            _ => None,
        });
        Some(Origin {
            scheme,
            host: host.to_ascii_lowercase(),
            port,
        })
    }
}

/// `authority` as host and port (`[::1]:8080`, `localhost`), or `None` when the port is not
/// a number.
fn split_port(authority: &str) -> Option<(&str, Option<u16>)> {
    let colon = match authority.rfind(':') {
        Some(i) if !authority[i..].contains(']') => i,
        _ => return Some((authority, None)),
    };
    let port = authority[colon + 1..].parse().ok()?;
    let host = &authority[..colon];
    (!host.is_empty()).then_some((host, Some(port)))
}

/// The origins and hosts allowed.
#[derive(Debug, Clone)]
pub(super) struct Allowed {
    origins: Vec<Origin>,
}

impl Allowed {
    /// The server's own origins on `port` and `extra` ones (already checked by
    /// `parse_origin`).
    pub(super) fn new(port: u16, extra: &[String]) -> Allowed {
        let own = ["127.0.0.1", "localhost", "[::1]"].map(|host| format!("http://{host}:{port}"));
        let origins = own
            .iter()
            .chain(extra)
            .filter_map(|o| Origin::parse(o))
            .collect();
        Allowed { origins }
    }

    /// Why a request with these `Origin` and `Host` headers is refused, if it is: a browser
    /// page of another origin, or a name that is not loopback's (DNS rebinding). A request
    /// without `Origin` is not a browser's cross-site one.
    pub(super) fn refusal(
        &self,
        origin: Option<&[u8]>,
        host: Option<&[u8]>,
    ) -> Option<&'static str> {
        let host_ok = host
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(split_port)
            .is_some_and(|(name, _)| {
                ["localhost", "127.0.0.1", "[::1]"]
                    .iter()
                    .any(|own| name.eq_ignore_ascii_case(own))
            });
        if !host_ok {
            return Some("Forbidden: the Host is not this server's loopback name");
        }
        let origin = origin?;
        let allowed = std::str::from_utf8(origin)
            .ok()
            .and_then(Origin::parse)
            .is_some_and(|o| self.origins.contains(&o));
        (!allowed).then_some("Forbidden: the Origin is not allowed")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_and_added_origins_pass_others_are_refused() {
        let allowed = Allowed::new(8123, &["https://app.example".to_owned()]);
        let host = Some(&b"127.0.0.1:8123"[..]);
        let check = |origin: &str| allowed.refusal(Some(origin.as_bytes()), host);
        for good in [
            "http://127.0.0.1:8123",
            "http://LOCALHOST:8123",
            "http://[::1]:8123",
            "https://app.example",
            "https://app.example:443",
        ] {
            assert_eq!(check(good), None, "{good}");
        }
        for bad in [
            "null",
            "https://evil.example",
            "http://127.0.0.1:1",
            "http://127.0.0.1",
            "https://app.example:8443",
            "http://app.example",
            "https://app.example/x",
            "",
        ] {
            assert!(check(bad).is_some(), "{bad}");
        }
        assert_eq!(allowed.refusal(None, host), None);
        assert!(allowed.refusal(Some(&[0xff]), host).is_some());
    }

    #[test]
    fn only_loopback_hosts_pass() {
        let allowed = Allowed::new(1, &[]);
        for good in ["localhost", "127.0.0.1:9", "[::1]:80", "LocalHost:1"] {
            assert_eq!(allowed.refusal(None, Some(good.as_bytes())), None, "{good}");
        }
        for bad in [
            "evil.example",
            "evil.example:1",
            "127.0.0.1.nip.io",
            "[::2]:1",
            ":80",
        ] {
            assert!(
                allowed.refusal(None, Some(bad.as_bytes())).is_some(),
                "{bad}"
            );
        }
        assert!(allowed.refusal(None, None).is_some());
    }
}
