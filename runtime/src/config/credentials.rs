//! The application token's credentials.

use crate::secret::Secret;

/// An application token: OAuth 2 client id and client secret.
///
/// The secret is kept in a [`Secret`] and never printed.
#[derive(Clone, Debug)]
pub struct Credentials {
    client_id: String,
    client_secret: Secret,
}

impl Credentials {
    /// Credentials from a client id and its secret.
    pub fn new(client_id: impl Into<String>, client_secret: impl Into<Secret>) -> Self {
        Credentials {
            client_id: client_id.into(),
            client_secret: client_secret.into(),
        }
    }

    /// The client id.
    pub fn client_id(&self) -> &str {
        &self.client_id
    }

    /// The client secret.
    pub fn client_secret(&self) -> &Secret {
        &self.client_secret
    }
}
