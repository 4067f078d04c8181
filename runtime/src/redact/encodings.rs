//! The whole-text encodings a secret is searched for in: hex and base64.

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `bytes` in lower-case hex (matching ignores case).
pub(super) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}

/// The base64 and base64url characters that depend on `secret` alone, for
/// each of the three positions (modulo 3 bytes) it can start at inside a
/// longer encoded text: the characters mixing its bits with those of
/// neighbouring bytes (or padding) are left out, so each core is found
/// whatever surrounds the secret, padded or not.
pub(super) fn base64_cores(secret: &[u8]) -> Vec<String> {
    let mut cores = Vec::with_capacity(6);
    for before in 0..3 {
        let mut shifted = vec![0u8; before];
        shifted.extend_from_slice(secret);
        // Characters whose 6 bits all come from the secret.
        let start = (before * 8).div_ceil(6);
        let end = shifted.len() * 8 / 6;
        for alphabet in [STANDARD, URL_SAFE] {
            let encoded = base64_unpadded(&shifted, alphabet);
            if let Some(core) = encoded.get(start..end) {
                cores.push(core.to_owned());
            }
        }
    }
    cores
}

/// `bytes` in base64 with `alphabet`, without padding.
fn base64_unpadded(bytes: &[u8], alphabet: &[u8; 64]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let group = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..=chunk.len() {
            let index = (group >> (18 - 6 * i)) & 63;
            out.push(char::from(alphabet[index as usize]));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_and_base64_of_known_values() {
        assert_eq!(hex(b"\x00/A\xff"), "002f41ff");
        assert_eq!(base64_unpadded(b"Man", STANDARD), "TWFu");
        assert_eq!(base64_unpadded(b"Ma", STANDARD), "TWE");
        assert_eq!(base64_unpadded(b"\xfb\xff", STANDARD), "+/8");
        assert_eq!(base64_unpadded(b"\xfb\xff", URL_SAFE), "-_8");
    }

    #[test]
    fn each_core_is_inside_the_encoding_of_any_embedding() {
        let secret = b"s3cr3t+value/XYZ";
        let cores = base64_cores(secret);
        assert_eq!(cores.len(), 6);
        for before in [&b""[..], b"a", b"ab", b"abc", b"abcd"] {
            for after in [&b""[..], b"z", b"zz"] {
                let whole = [before, secret, after].concat();
                for alphabet in [STANDARD, URL_SAFE] {
                    let encoded = base64_unpadded(&whole, alphabet);
                    let found = cores.iter().any(|c| encoded.contains(c.as_str()));
                    assert!(found, "{before:?} {after:?} {encoded}");
                }
            }
        }
    }
}
