//! Shared fixtures: static API and operation descriptions, a mock token
//! endpoint, and a raw TCP server that records request heads byte for byte.
#![allow(dead_code)]

pub mod capture;
pub mod loopback;
pub mod msp;
pub mod small;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ruckus_one_runtime::internal::{
    Api, ApiAuth, AuthSettings, ErrorFamily, Hosts, MediaTypes, Operation,
};
use ruckus_one_runtime::{Client, Config, Credentials, Method, RetryPolicy};
use serde_json::json;
use wiremock::matchers::{method, path_regex};
use wiremock::{Mock, MockServer, Respond, ResponseTemplate};

pub const CLIENT_ID: &str = "my-client-id";
pub const SECRET: &str = "s3cr3t-value-XYZ";
pub const TOKEN: &str = "tok-secret-value-ABC";
pub const OWNER_TENANT: &str = "owner-tenant";

pub static API: Api = Api {
    name: "config",
    title: "Configuration",
    prefix: "/api",
    hosts: HOSTS,
    auth: ApiAuth::ClientCredentials,
    tenant_limit: None,
};

const HOSTS: Hosts = Hosts {
    asia: "https://api.asia.ruckus.cloud",
    europe: "https://api.eu.ruckus.cloud",
    north_america: "https://api.ruckus.cloud",
};

pub static AI: Api = Api {
    name: "ai",
    title: "Analytics administration",
    prefix: "/ai",
    hosts: HOSTS,
    auth: ApiAuth::ClientCredentials,
    tenant_limit: None,
};

/// An API whose operations authenticate with the caller's unit token.
pub static UNIT: Api = Api {
    name: "portal",
    title: "Resident portal",
    prefix: "",
    hosts: HOSTS,
    auth: ApiAuth::UnitToken,
    tenant_limit: None,
};

/// Hosts that are never reached (tests point the client at loopback).
pub const EXAMPLE_HOSTS: Hosts = Hosts {
    asia: "https://a.example",
    europe: "https://e.example",
    north_america: "https://n.example",
};

/// The network API on [`EXAMPLE_HOSTS`], without a tenant limit.
pub static NETWORK: Api = Api {
    name: "network",
    title: "Network",
    prefix: "",
    hosts: EXAMPLE_HOSTS,
    auth: ApiAuth::ClientCredentials,
    tenant_limit: None,
};

pub static AUTH: AuthSettings = AuthSettings {
    token_url: "{host}/oauth2/token/{tenant_id}",
    token_url_without_tenant: "{host}/oauth2/token",
    tenant_header: "x-rks-tenantid",
};

const JSON: &[MediaTypes] = &[MediaTypes {
    content_type: Some("application/json"),
    accept: "application/json",
}];

pub static GET_THING: Operation = Operation {
    id: "get_thing",
    method: Method::Get,
    path: "/things/{thingId}",
    api: &API,
    versions: JSON,
    error_family: ErrorFamily::ErrorsArray,
    service: &ruckus_one_runtime::internal::Service {
        name: "test",
        rate_limit: None,
    },
    reads: true,
};

pub static GET_THINGS: Operation = Operation {
    id: "get_things",
    method: Method::Get,
    path: "/things",
    api: &API,
    versions: JSON,
    error_family: ErrorFamily::ErrorsArray,
    service: &ruckus_one_runtime::internal::Service {
        name: "test",
        rate_limit: None,
    },
    reads: true,
};

pub static POST_THING: Operation = Operation {
    id: "post_thing",
    method: Method::Post,
    path: "/things",
    api: &API,
    versions: JSON,
    error_family: ErrorFamily::ErrorsArray,
    service: &ruckus_one_runtime::internal::Service {
        name: "test",
        rate_limit: None,
    },
    reads: false,
};

pub static PUT_THING: Operation = Operation {
    id: "put_thing",
    method: Method::Put,
    path: "/things/{thingId}",
    api: &API,
    versions: JSON,
    error_family: ErrorFamily::ErrorsArray,
    service: &ruckus_one_runtime::internal::Service {
        name: "test",
        rate_limit: None,
    },
    reads: false,
};

pub static PATCH_THING: Operation = Operation {
    id: "patch_thing",
    method: Method::Patch,
    path: "/things/{thingId}",
    api: &API,
    versions: JSON,
    error_family: ErrorFamily::ErrorsArray,
    service: &ruckus_one_runtime::internal::Service {
        name: "test",
        rate_limit: None,
    },
    reads: false,
};

pub static DELETE_THING: Operation = Operation {
    id: "delete_thing",
    method: Method::Delete,
    path: "/things/{thingId}",
    api: &API,
    versions: JSON,
    error_family: ErrorFamily::ErrorsArray,
    service: &ruckus_one_runtime::internal::Service {
        name: "test",
        rate_limit: None,
    },
    reads: false,
};

pub static GET_ENTITLEMENT: Operation = Operation {
    id: "get_entitlement",
    method: Method::Get,
    path: "/entitlements",
    api: &API,
    versions: JSON,
    error_family: ErrorFamily::ErrorObject,
    service: &ruckus_one_runtime::internal::Service {
        name: "test",
        rate_limit: None,
    },
    reads: true,
};

pub static GET_IDENTITY: Operation = Operation {
    id: "get_identity",
    method: Method::Get,
    path: "/identities/{id}",
    api: &API,
    versions: JSON,
    error_family: ErrorFamily::StatusMessage,
    service: &ruckus_one_runtime::internal::Service {
        name: "test",
        rate_limit: None,
    },
    reads: true,
};

pub static GET_USERS: Operation = Operation {
    id: "get_users",
    method: Method::Get,
    path: "/users",
    api: &AI,
    versions: JSON,
    error_family: ErrorFamily::ErrorsArray,
    service: &ruckus_one_runtime::internal::Service {
        name: "test",
        rate_limit: None,
    },
    reads: true,
};

pub static CREATE_VENUE: Operation = Operation {
    id: "create_venue",
    method: Method::Post,
    path: "/venues",
    api: &API,
    versions: &[
        MediaTypes {
            content_type: Some("application/vnd.ruckus.v1+json"),
            accept: "application/vnd.ruckus.v1+json",
        },
        MediaTypes {
            content_type: Some("application/vnd.ruckus.v1.1+json"),
            accept: "application/vnd.ruckus.v1.1+json",
        },
    ],
    error_family: ErrorFamily::ErrorsArray,
    service: &ruckus_one_runtime::internal::Service {
        name: "test",
        rate_limit: None,
    },
    reads: false,
};

pub static POST_FORM: Operation = Operation {
    id: "post_form",
    method: Method::Post,
    path: "/forms",
    api: &API,
    versions: &[MediaTypes {
        content_type: Some("application/x-www-form-urlencoded"),
        accept: "application/json",
    }],
    error_family: ErrorFamily::ErrorsArray,
    service: &ruckus_one_runtime::internal::Service {
        name: "test",
        rate_limit: None,
    },
    reads: false,
};

pub static UPLOAD: Operation = Operation {
    id: "upload",
    method: Method::Post,
    path: "/uploads",
    api: &API,
    versions: &[MediaTypes {
        content_type: Some("multipart/form-data"),
        accept: "application/json",
    }],
    error_family: ErrorFamily::ErrorsArray,
    service: &ruckus_one_runtime::internal::Service {
        name: "test",
        rate_limit: None,
    },
    reads: false,
};

pub static PUT_BLOB: Operation = Operation {
    id: "put_blob",
    method: Method::Put,
    path: "/blobs/{name}",
    api: &API,
    versions: &[MediaTypes {
        content_type: None,
        accept: "*/*",
    }],
    error_family: ErrorFamily::ErrorsArray,
    service: &ruckus_one_runtime::internal::Service {
        name: "test",
        rate_limit: None,
    },
    reads: false,
};

/// Retries without noticeable waits.
pub fn fast_retry() -> RetryPolicy {
    RetryPolicy::default()
        .initial_backoff(Duration::from_millis(5))
        .max_backoff(Duration::from_millis(20))
        .max_retry_after(Duration::from_millis(50))
}

/// A configuration whose API and token endpoint are both `server`.
pub fn config(server: &MockServer) -> Config {
    Config::new(Credentials::new(CLIENT_ID, SECRET))
        .base_url(server.uri())
        .token_tenant_id(OWNER_TENANT)
        .retry(fast_retry())
        .request_timeout(Duration::from_secs(5))
}

pub fn client(server: &MockServer) -> Client {
    Client::new(config(server), &AUTH).expect("valid test configuration")
}

pub fn token_body(token: &str, expires_in: u64) -> serde_json::Value {
    json!({"access_token": token, "token_type": "Bearer", "expires_in": expires_in})
}

/// A token endpoint answering [`TOKEN`] valid for an hour.
pub fn token_mock() -> Mock {
    Mock::given(method("POST"))
        .and(path_regex("^/oauth2/token"))
        .respond_with(ResponseTemplate::new(200).set_body_json(token_body(TOKEN, 3600)))
}

/// A mock server with [`token_mock`] mounted.
pub async fn server() -> MockServer {
    let server = MockServer::start().await;
    token_mock().mount(&server).await;
    server
}

/// Answers `tok-1`, `tok-2`, ... on successive token requests.
pub struct SequentialTokens {
    pub counter: AtomicUsize,
    pub expires_in: u64,
}

impl SequentialTokens {
    pub fn new(expires_in: u64) -> Self {
        SequentialTokens {
            counter: AtomicUsize::new(0),
            expires_in,
        }
    }
}

impl Respond for SequentialTokens {
    fn respond(&self, _: &wiremock::Request) -> ResponseTemplate {
        let n = self.counter.fetch_add(1, Ordering::SeqCst) + 1;
        ResponseTemplate::new(200).set_body_json(token_body(&format!("tok-{n}"), self.expires_in))
    }
}

/// Requests the server received whose path starts with `prefix`.
pub async fn received(server: &MockServer, prefix: &str) -> Vec<wiremock::Request> {
    server
        .received_requests()
        .await
        .unwrap_or_default()
        .into_iter()
        .filter(|r| r.url.path().starts_with(prefix))
        .collect()
}

pub async fn token_requests(server: &MockServer) -> usize {
    received(server, "/oauth2/token").await.len()
}

pub fn header<'r>(request: &'r wiremock::Request, name: &str) -> Option<&'r str> {
    request.headers.get(name).and_then(|v| v.to_str().ok())
}

/// A minimal HTTP/1.1 server that records the head (request line and
/// headers) of each request exactly as received, and answers `200` with
/// `{}`.
pub struct RawServer {
    pub base: String,
    heads: Arc<Mutex<Vec<String>>>,
}

impl RawServer {
    pub fn start() -> RawServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        let heads = Arc::new(Mutex::new(Vec::new()));
        let recorded = heads.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let mut reader = BufReader::new(stream.try_clone().expect("clone"));
                let mut head = String::new();
                let mut length = 0usize;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                        break;
                    }
                    if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        length = v.trim().parse().unwrap_or(0);
                    }
                    head.push_str(&line);
                }
                let mut body = vec![0; length];
                let _ = reader.read_exact(&mut body);
                recorded.lock().unwrap().push(head);
                let _ = stream.write_all(
                    b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}",
                );
            }
        });
        RawServer { base, heads }
    }

    /// Request lines (`GET /path HTTP/1.1`) received so far.
    pub fn request_lines(&self) -> Vec<String> {
        self.heads
            .lock()
            .unwrap()
            .iter()
            .map(|h| h.lines().next().unwrap_or_default().to_owned())
            .collect()
    }
}
