//! Tenant ids: checked once, kept ready for the tenant header.

use std::sync::Arc;

use reqwest::header::HeaderValue;

use crate::error::Error;

/// A checked tenant id and its header value, shared: a clone (one per call of a client acting
/// for the tenant) counts one reference.
#[derive(Clone)]
pub(crate) struct Tenant(Arc<Checked>);

struct Checked {
    id: Box<str>,
    header: HeaderValue,
}

/// Longest accepted tenant id, in characters.
pub(crate) const MAX_TENANT_ID_LEN: usize = 128;

/// Checks a tenant id: 1 to [`MAX_TENANT_ID_LEN`] visible ASCII characters
/// (`!` to `~`). `what` names the setting in the error.
pub(crate) fn check_tenant_id(id: &str, what: &str) -> Result<(), Error> {
    let problem = if id.is_empty() {
        "is empty"
    } else if id.starts_with(|c: char| c.is_whitespace())
        || id.ends_with(|c: char| c.is_whitespace())
    {
        "has leading or trailing white space"
    } else if id.len() > MAX_TENANT_ID_LEN {
        "is longer than 128 characters"
    } else if !id.bytes().all(|b| b.is_ascii_graphic()) {
        "contains a character that is not visible ASCII (`!` to `~`)"
    } else if id == "." || id == ".." {
        // In the token URL's path it would name another resource (`/oauth2/token/..`).
        "is a dot segment (`.` or `..`)"
    } else {
        return Ok(());
    };
    let shown: String = id.chars().take(40).collect();
    let ellipsis = if id.chars().nth(40).is_some() {
        "…"
    } else {
        ""
    };
    Err(Error::InvalidTenantId {
        message: format!("the {what} {shown:?}{ellipsis} {problem}"),
    })
}

impl Tenant {
    /// A checked tenant id for the tenant header; `what` names the setting
    /// in the error.
    pub(crate) fn new(id: &str, what: &str) -> Result<Tenant, Error> {
        check_tenant_id(id, what)?;
        let header = HeaderValue::from_str(id).map_err(|_| Error::InvalidTenantId {
            message: format!("the {what} cannot be sent in a header"),
        })?;
        Ok(Tenant(Arc::new(Checked {
            id: id.into(),
            header,
        })))
    }

    /// The tenant id.
    pub(crate) fn id(&self) -> &str {
        &self.0.id
    }

    pub(crate) fn header(&self) -> &HeaderValue {
        &self.0.header
    }
}
