//! Tests of the configuration.

use super::*;
use crate::operation::ApiAuth;
use crate::operation::{Api, AuthSettings, Hosts};

static API: Api = Api {
    name: "ai",
    title: "Analytics",
    prefix: "/ai",
    hosts: Hosts {
        asia: "https://api.asia.ruckus.cloud",
        europe: "https://api.eu.ruckus.cloud",
        north_america: "https://api.ruckus.cloud",
    },
    auth: ApiAuth::ClientCredentials,
    tenant_limit: None,
};
static AUTH: AuthSettings = AuthSettings {
    token_url: "{host}/oauth2/token/{tenant_id}",
    token_url_without_tenant: "{host}/oauth2/token",
    tenant_header: "x-rks-tenantid",
};

fn config() -> Config {
    Config::new(Credentials::new("id", "s3cr3t"))
}

#[test]
fn base_urls() {
    assert_eq!(
        config().resolve_base_url(&API),
        "https://api.ruckus.cloud/ai"
    );
    assert_eq!(
        config().region(Region::Europe).resolve_base_url(&API),
        "https://api.eu.ruckus.cloud/ai"
    );
    assert_eq!(
        config()
            .base_url("http://127.0.0.1:9/")
            .resolve_base_url(&API),
        "http://127.0.0.1:9/ai"
    );
    assert_eq!(
        config()
            .base_url("http://h")
            .api_prefix("ai", "/analytics")
            .resolve_base_url(&API),
        "http://h/analytics"
    );
    assert_eq!(
        config()
            .base_url("http://h")
            .api_base_url("ai", "http://other/x/")
            .resolve_base_url(&API),
        "http://other/x"
    );
    assert_eq!(
        config().api_prefix("ai", "").resolve_base_url(&API),
        "https://api.ruckus.cloud"
    );
}

#[test]
fn token_urls() {
    assert_eq!(
        config().resolve_token_url(&AUTH),
        "https://api.ruckus.cloud/oauth2/token"
    );
    assert_eq!(
        config()
            .region(Region::Asia)
            .token_tenant_id("t1")
            .resolve_token_url(&AUTH),
        "https://api.asia.ruckus.cloud/oauth2/token/t1"
    );
    assert_eq!(
        config()
            .base_url("http://127.0.0.1:1")
            .token_tenant_id("t 1")
            .resolve_token_url(&AUTH),
        "http://127.0.0.1:1/oauth2/token/t%201"
    );
    assert_eq!(
        config()
            .token_url("http://x/token")
            .token_tenant_id("t")
            .resolve_token_url(&AUTH),
        "http://x/token"
    );
}

#[test]
fn debug_hides_secret() {
    let text = format!("{:?}", config());
    assert!(!text.contains("s3cr3t"), "{text}");
    assert!(text.contains("Secret(***)"));
}

#[test]
fn plain_http_only_when_every_url_is_plain_http() {
    let plain = |c: Config| {
        let token = c.resolve_token_url(&AUTH);
        c.plain_http_only(&token)
    };
    assert!(!plain(config()), "the regions' hosts are https");
    assert!(plain(config().base_url("http://127.0.0.1:9")));
    assert!(plain(config().base_url("HTTP://127.0.0.1:9")));
    assert!(!plain(config().base_url("https://127.0.0.1:9")));
    assert!(!plain(
        config()
            .base_url("http://127.0.0.1:9")
            .api_base_url("ai", "https://other")
    ));
    assert!(!plain(
        config()
            .base_url("http://127.0.0.1:9")
            .token_url("https://login.example/token")
    ));
    assert!(!plain(config().api_base_url("ai", "http://other")));
}
