//! The support module of the generated conformance test: what one operation must send and
//! what the server answers, sample values, and the wiremock server, client and mock.

use proc_macro2::TokenStream;
use quote::quote;

/// The test's helpers: a server with a token endpoint, a client pointed at it, and the mock
/// that checks one request.
pub(super) fn support(krate: &proc_macro2::Ident) -> TokenStream {
    let mocks = mocks(krate);
    quote! {
        //! Helpers of the conformance test.
        // With some area features off, or a spec without binary or empty answers, some helpers
        // go unused.
        #![allow(dead_code)]
        use wiremock::matchers::{body_json, header, header_regex, method, path, query_param};
        use wiremock::{Mock, MockGuard, MockServer, ResponseTemplate};

        /// What one operation must send, and what the server answers.
        pub struct Expect {
            pub method: &'static str,
            pub path: &'static str,
            pub accept: &'static str,
            pub content_type: Option<&'static str>,
            pub query: &'static [(&'static str, &'static str)],
            pub headers: &'static [(&'static str, &'static str)],
            pub body_json: Option<serde_json::Value>,
            pub status: u16,
            pub answer: Answer,
        }

        /// The answer's body.
        pub enum Answer {
            Json(serde_json::Value),
            Bytes(&'static [u8]),
            Empty,
        }

        /// A value of a generated type with every field set, and the JSON it is sent as
        /// (written from the wire names, not by serializing the value).
        pub trait Sample {
            /// The value.
            fn sample() -> Self;
            /// Its JSON.
            fn sample_json() -> serde_json::Value;
        }

        /// A JSON object of these fields.
        pub fn object<const N: usize>(fields: [(&str, serde_json::Value); N]) -> serde_json::Value {
            serde_json::Value::Object(fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
        }

        /// `json` with the string `tag` in its field `field` (a union's discriminator).
        pub fn tagged(mut json: serde_json::Value, field: &str, tag: &str) -> serde_json::Value {
            if let Some(object) = json.as_object_mut() {
                object.insert(field.to_owned(), tag.into());
            }
            json
        }

        #mocks
    }
}

/// The server, the client pointed at it, the mock that checks one request and the JSON check.
fn mocks(krate: &proc_macro2::Ident) -> TokenStream {
    quote! {
        /// A server on 127.0.0.1 with a token endpoint.
        pub async fn server() -> MockServer {
            let server = MockServer::start().await;
            Mock::given(method("POST"))
                .and(path("/oauth2/token"))
                .respond_with(ResponseTemplate::new(200).set_body_json(
                    serde_json::json!({"access_token": "conformance-token", "token_type": "Bearer", "expires_in": 3600}),
                ))
                .mount(&server)
                .await;
            server
        }

        /// A client whose every API lives on `server`.
        pub fn client(server: &MockServer) -> #krate::Client {
            let config = #krate::Config::new(#krate::Credentials::new("conformance", "conformance-secret"))
                .base_url(server.uri())
                .unit_token("conformance-unit-token")
                .retry(#krate::RetryPolicy::none());
            #krate::Client::new(config).expect("valid configuration")
        }

        /// Mounts a mock that matches exactly one request as described; it verifies when the
        /// guard drops.
        pub async fn expect(server: &MockServer, e: &Expect) -> MockGuard {
            let mut mock = Mock::given(method(e.method))
                .and(path(e.path))
                .and(header("accept", e.accept))
                // Either bearer token: the OAuth one or the unit token.
                .and(header_regex("authorization", "^Bearer conformance-(token|unit-token)$"));
            if let Some(ct) = e.content_type {
                mock = mock.and(ContentType(ct));
            }
            for (k, v) in e.query {
                mock = mock.and(query_param(*k, *v));
            }
            for (k, v) in e.headers {
                mock = mock.and(header(*k, *v));
            }
            if let Some(json) = &e.body_json {
                mock = mock.and(body_json(json));
            }
            let answer = match &e.answer {
                Answer::Json(json) => ResponseTemplate::new(e.status).set_body_json(json),
                Answer::Bytes(bytes) => ResponseTemplate::new(e.status).set_body_bytes(*bytes),
                Answer::Empty => ResponseTemplate::new(e.status),
            };
            server.register_as_scoped(mock.respond_with(answer).expect(1)).await
        }

        /// `Content-Type` equal to `ct`, or starting with it and a parameter (multipart boundary).
        struct ContentType(&'static str);

        impl wiremock::Match for ContentType {
            fn matches(&self, request: &wiremock::Request) -> bool {
                request
                    .headers
                    .get("content-type")
                    .and_then(|v| v.to_str().ok())
                    .is_some_and(|v| v == self.0 || v.starts_with(&format!("{};", self.0)))
            }
        }

        /// The decoded value serializes back to exactly the JSON the server sent.
        pub fn same_json<T: serde::Serialize>(value: &T, e: &Expect, id: &str) {
            let Answer::Json(expected) = &e.answer else {
                panic!("{id}: the answer is not JSON");
            };
            let actual = serde_json::to_value(value).expect("serializable");
            assert_eq!(&actual, expected, "{id}: decoded value does not serialize back to the answer");
        }
    }
}
