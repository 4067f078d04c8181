//! The environment variables read by [`Config::from_env`](crate::Config::from_env).

/// The application token's client id. Required.
pub const CLIENT_ID: &str = "RUCKUS_CLIENT_ID";
/// The application token's client secret. Required.
pub const CLIENT_SECRET: &str = "RUCKUS_CLIENT_SECRET";
/// The tenant that owns the application token
/// ([`Config::token_tenant_id`](crate::Config::token_tenant_id)). Required.
pub const TENANT_ID: &str = "RUCKUS_TENANT_ID";
/// The region: `na`, `eu` or `asia` (see
/// [`Region::from_name`](crate::Region::from_name) for the other
/// spellings). Required unless [`BASE_URL`] is set.
pub const REGION: &str = "RUCKUS_REGION";
/// Replaces the regional host ([`Config::base_url`](crate::Config::base_url)),
/// for example a proxy or a test server. Optional; empty is unset.
pub const BASE_URL: &str = "RUCKUS_BASE_URL";
