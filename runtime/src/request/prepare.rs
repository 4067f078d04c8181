//! A built request made ready to send: its URL, headers, body and call options resolved and
//! checked ([`Prepared`]), or the first error met while building it.

use super::*;

impl Request<'_> {
    /// The request as the executor sends it, or the first error met while building it.
    pub(super) fn prepare(self) -> Result<Prepared, Error> {
        if let Some(error) = self.error {
            return Err(error.into());
        }
        // What the target says: method, API, error family, `Accept`, and the
        // `Content-Type` that overrides the body's default.
        let (operation, path_template) = match &self.target {
            Target::Operation(op) => (op.id, std::borrow::Cow::Borrowed(op.path)),
            Target::Dynamic(_) => ("raw", std::borrow::Cow::Owned(self.path.clone())),
        };
        let reads = match &self.target {
            Target::Operation(op) => op.reads,
            Target::Dynamic(dynamic) => dynamic.method == Method::Get,
        };
        let (method, api, family, accept, declared, service) = match &self.target {
            Target::Operation(op) => {
                let version = op.versions.get(self.version).ok_or_else(|| {
                    Error::invalid(format!("operation `{}` declares no media types", op.id))
                })?;
                (
                    op.method,
                    op.api,
                    op.error_family,
                    static_media_type_value(version.accept, "Accept")?,
                    Declared::Static(version.content_type),
                    Some(op.service),
                )
            }
            Target::Dynamic(dynamic) => (
                dynamic.method,
                dynamic.api,
                ErrorFamily::ErrorsArray,
                media_type_value(&dynamic.accept, "Accept")?,
                Declared::Dynamic(dynamic.content_type.as_deref()),
                None,
            ),
        };
        let url = self
            .client
            .with_base_url(api, |base| base.request_url(&self.path, &self.query))
            .map_err(Error::invalid)?;
        let (content_type, body) = body_with_type(self.body, declared)?;
        let tenant = self.tenant.or_else(|| self.client.tenant().cloned());
        // `Accept`, `Content-Type` and the tenant header stay apart from the caller's headers
        // (which they replace): a call without extra headers builds no header map of its own.
        Ok(Prepared {
            method,
            reads,
            url,
            headers: (!self.headers.is_empty()).then(|| Box::new(self.headers)),
            accept,
            content_type,
            body,
            family,
            auth: api.auth,
            api: api.name,
            options: self.options,
            operation,
            path_template,
            service,
            tenant_limit: api.tenant_limit,
            tenant,
        })
    }
}

/// The `Content-Type` a target declares for bodies: a generated operation's version's (static),
/// or a raw request's.
#[derive(Clone, Copy)]
enum Declared<'a> {
    Static(Option<&'static str>),
    Dynamic(Option<&'a str>),
}

impl Declared<'_> {
    /// The declared type, else `default`, as a header value.
    fn or(self, default: &'static str) -> Result<HeaderValue, Error> {
        match self {
            Declared::Dynamic(Some(value)) => media_type_value(value, "Content-Type"),
            Declared::Static(Some(value)) => static_media_type_value(value, "Content-Type"),
            _ => static_media_type_value(default, "Content-Type"),
        }
    }

    fn given(self) -> Option<&'static str> {
        match self {
            Declared::Static(value) => value,
            Declared::Dynamic(_) => None,
        }
    }
}

/// The `Content-Type` and bytes of `body`: the operation's declared media
/// type when it has one, else the body's own.
fn body_with_type(
    body: Body,
    declared: Declared<'_>,
) -> Result<(Option<HeaderValue>, Option<Bytes>), Error> {
    Ok(match body {
        Body::None => (None, None),
        Body::Json(bytes) => (Some(declared.or("application/json")?), Some(bytes)),
        Body::Form(bytes) => (
            Some(declared.or("application/x-www-form-urlencoded")?),
            Some(bytes),
        ),
        Body::Multipart {
            content_type,
            bytes,
        } => (Some(multipart_type(&content_type, declared)?), Some(bytes)),
        Body::Binary(bytes) => (Some(declared.or("application/octet-stream")?), Some(bytes)),
        Body::Typed {
            content_type,
            bytes,
        } => {
            let value = match declared {
                Declared::Dynamic(Some(value)) => media_type_value(value, "Content-Type")?,
                _ => match declared.given() {
                    Some(value) => static_media_type_value(value, "Content-Type")?,
                    None => media_type_value(&content_type, "Content-Type")?,
                },
            };
            (Some(value), Some(bytes))
        }
    })
}

/// The `Content-Type` of a multipart body whose own is `own` (`multipart/form-data;
/// boundary=...`): the declared multipart media type (a vendor version such as
/// `multipart/vnd.ruckus.v1+form-data`) with the body's parameters, so the boundary stays the one
/// the bytes use; the body's own when nothing multipart is declared.
fn multipart_type(own: &str, declared: Declared<'_>) -> Result<HeaderValue, Error> {
    let declared = match declared {
        Declared::Static(value) => value,
        Declared::Dynamic(value) => value,
    };
    let essence = declared
        .and_then(|d| d.split(';').next())
        .map(str::trim)
        .filter(|d| {
            d.get(..10)
                .is_some_and(|m| m.eq_ignore_ascii_case("multipart/"))
        });
    let value = match (essence, own.split_once(';')) {
        (Some(essence), Some((_, params))) => format!("{essence};{params}"),
        _ => own.to_owned(),
    };
    HeaderValue::from_str(&value).map_err(|_| Error::invalid("invalid multipart content type"))
}

fn media_type_value(value: &str, what: &str) -> Result<HeaderValue, Error> {
    HeaderValue::from_str(value)
        .map_err(|_| Error::invalid(format!("invalid {what} media type `{value}`")))
}

/// [`media_type_value`] of a static media type (those of generated operations), without
/// copying it and checked once.
fn static_media_type_value(value: &'static str, what: &str) -> Result<HeaderValue, Error> {
    HeaderValue::from_maybe_shared(Bytes::from_static(value.as_bytes()))
        .map_err(|_| Error::invalid(format!("invalid {what} media type `{value}`")))
}
