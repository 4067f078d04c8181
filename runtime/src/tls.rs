//! The TLS crypto provider.

/// With rustls on ring only (`tls-ring` without `tls-aws-lc`), installs
/// ring as the process's default crypto provider unless one is installed:
/// reqwest needs one to build a client. Otherwise nothing.
pub(crate) fn ensure_crypto_provider() {
    #[cfg(all(feature = "tls-ring", not(feature = "tls-aws-lc")))]
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        // Another thread may install one meanwhile: either is fine.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
}
