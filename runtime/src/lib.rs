//! Runtime of the generated RUCKUS One client.
//!
//! The generated crate describes every endpoint and builds its requests; this
//! crate sends them and does the rest:
//!
//! - **Configuration** ([`Config`], [`Region`], [`Credentials`]): regional
//!   hosts, base URL and prefix overrides for tests and proxies, timeouts,
//!   [`RetryPolicy`], delegated tenant, maximum body size.
//! - **Authentication**: OAuth 2 client credentials. The access token is
//!   requested once, cached until shortly before it expires (60 s, or a
//!   tenth of its lifetime if less), shared by all clones of a [`Client`]
//!   and renewed by a single request however many calls need it at once. A
//!   `401` answer causes one renewal and one repetition of the call.
//!   Redirects from the token endpoint are errors, never followed.
//! - **Retries**: `429` and `423` always, `502`/`503`/`504`, timeouts and
//!   connection failures for idempotent methods, with exponential backoff
//!   and jitter, honouring `Retry-After` (seconds or HTTP date) up to
//!   [`RetryPolicy::max_retry_after`] (a longer demand returns the error at
//!   once).
//! - **Pacing** ([`Pacing`], [`Config::pacing`]): every operation names its service and the
//!   [`RateLimit`] it publishes, and its API the [`TenantLimit`] that all the calls of a tenant
//!   share; each attempt waits for budget in both buckets (per tenant, shared by
//!   all clones of a [`Client`], or by several processes through a [`PacingStore`]) instead of
//!   provoking `429`s. A `429` empties the buckets (a `Retry-After` holds them); pacing never
//!   adds attempts.
//! - **Deprecations** ([`Deprecation`]): an answer's deprecation headers are said once per
//!   operation and version per process (WARN) and read with [`Response::deprecation`].
//! - **At MSP scale**: [`for_each_tenant`] runs one piece of work per customer tenant with
//!   bounded concurrency and one token; the generated client's `wait_all` follows many
//!   asynchronous writes ([`PendingActivity`], from [`Accepted::pending`]) with one activity
//!   query per tenant and round for up to [`BULK_QUERY_SIZE`] request ids.
//! - **Bounded waits and memory**: every call has a deadline
//!   ([`Config::call_timeout`], 120 s) covering the token request, all
//!   attempts (30 s each) and the waits between them; bodies are read in
//!   chunks up to [`Config::max_body_size`] (64 MiB; of error answers at
//!   most 1 MiB is kept).
//! - **Tenant ids** are checked (1 to 128 visible ASCII characters) before
//!   anything is sent ([`Error::InvalidTenantId`]).
//! - **Errors** ([`Error`], [`ApiError`], [`ErrorBody`]): status, request id,
//!   error body decoded as the operation's declared shape or any other known
//!   one, and the raw body.
//! - **Paging** ([`Pages`]: a paged operation's `pages()` and `items()`).
//! - **Asynchronous writes** (a request's `send_accepted`, whose [`Accepted`]
//!   answer remembers its request id and tenant and waits as that tenant;
//!   `send_and_wait`, which returns both as [`Completed`]; the generated
//!   client's `wait_for_activity` for a request id alone).
//! - **Raw requests** ([`RawRequest`]) for endpoints the generated client
//!   lacks, through the same authentication, retries and errors.
//! - **Response metadata**: the future of every send ([`Sending`]) has
//!   `with_response()`, which answers a [`Response`] (decoded body, status,
//!   headers, request id).
//! - **HTTP control**: a caller-built `reqwest::Client`
//!   ([`Config::http_client`], [`Config::http_client_builder`]; the
//!   [`reqwest`] crate is re-exported), per-call `timeout`,
//!   `attempt_timeout`, `retry` and `max_body_size` on a request; token requests are retried on `429`/`5xx`
//!   with the call's policy.
//! - **Settings from the environment**: [`Config::from_env`] (variables in
//!   [`env`](mod@env)), [`Config::from_vars`] for tests.
//!
//! # Tracing
//!
//! Every call runs in a `ruckus_one.call` span (target `ruckus_one_runtime`,
//! level INFO) with the fields `operation` (the operation id, `raw` for
//! raw requests), `method`, `path` (the path template), `api`, `attempts`,
//! `status` (of the last answer), `request_id`, `duration_ms`, `paced_ms` (time
//! spent waiting for rate budget, when any), and on
//! failure `error` (its kind) and `code` (the service's error code). Inside
//! it: DEBUG events `waiting for rate budget` (`service`, `wait_ms`), INFO events `retrying` (`attempt`, `delay_ms`, `reason`,
//! `retry_after_s`) and `not retrying: ...`, DEBUG events for token
//! requests (`requesting an access token`, `access token obtained` with
//! `lifetime_s`), a `retrying the access token request` INFO event, a WARN
//! event when no token could be obtained, and `call succeeded` / `call
//! failed` at DEBUG. Waiting for an activity runs in a
//! `ruckus_one.wait_for_activity` span (`operation`, `request_id`, `polls`)
//! with a DEBUG `activity polled` event per poll (`poll`, `status`).
//! WARN events say, once per operation and version, that the service
//! deprecated one (`operation`, `version`, `current_version`, `deprecation`,
//! `sunset`), and, once per outage, that a shared pacing store does not
//! answer (`reason`, `share`, `retry_s`). Neither secrets, tokens, headers nor bodies are ever recorded. Without a
//! subscriber the `tracing` macros cost a few relaxed atomic loads.
//!
//! # Cargo features
//!
//! - `tls-aws-lc` (default): TLS with rustls and the aws-lc-rs crypto
//!   provider (reqwest's default provider).
//! - `tls-ring`: TLS with rustls and the ring crypto provider, much faster
//!   to build (no `aws-lc-sys`): `default-features = false, features =
//!   ["tls-ring"]`. It installs ring as the process's default rustls
//!   provider when the runtime builds its HTTP client (or
//!   [`Config::http_client_builder`] is called) and none is installed.
//!
//! With neither, `https://` URLs fail unless reqwest's TLS is enabled by
//! another crate of the build.
//!
//! The client secret and the access token never appear in `Debug` or
//! `Display` output or in error messages. Every text from the service that
//! the client keeps, shows or traces (error bodies and messages, request
//! ids, a failed activity's error and the activity itself, the body of an
//! answer that does not decode, tracing fields) first goes through one
//! redaction step, which replaces by `***` every echo of the client secret,
//! the unit token and the current and previous access tokens: as is in any
//! letter case, JSON-escaped (also nested), percent- or form-encoded, as
//! HTML character references, in hex, base64 or base64url (also inside a
//! longer base64 text), on the whole body before anything is shortened. Of
//! the token endpoint's error answers only the OAuth `error` and
//! `error_description` (or the start of a body that has none) are shown.
//!
//! # What is here
//!
//! The crate root holds what an application names or calls: the client, its
//! configuration, errors and answers, [`RawRequest`], pacing and fan-out. The
//! generated crate wraps, returns or re-exports most of it. What only
//! generated code names (the static descriptions of APIs and operations, the
//! request builder they are sent through, the helpers of generated models,
//! unions and paging) is in a hidden `internal` module, so that it does not
//! appear on these pages or the client's.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod accepted;
mod activity;
mod auth;
mod body;
mod bulk_wait;
mod call;
mod client;
mod config;
mod deadline;
mod deprecation;
mod enums;
mod error;
mod error_body;
mod execute;
mod fan_out;
#[doc(hidden)]
pub mod internal;
mod model;
mod multipart;
mod operation;
mod pacing;
mod paging;
mod path;
mod raw;
mod raw_json;
mod redact;
mod request;
mod response;
mod retry;
mod secret;
mod sending;
mod tenant;
mod tls;

// Application API: what an application names or calls. Most of it is also what the generated
// crate wraps, returns or re-exports; what only generated code names is in `internal`.
pub use accepted::{Accepted, Completed};
pub use activity::WaitOptions;
pub use bulk_wait::{BULK_QUERY_SIZE, PendingActivity};
pub use call::{Call, Representation};
pub use client::Client;
pub use config::{Config, Credentials, DEFAULT_MAX_BODY_SIZE, MAX_ERROR_BODY_SIZE, Region, env};
pub use enums::UnknownValue;
pub use error::Error;
pub use fan_out::{
    ForTenant, TENANT_TIMEOUT, TenantOutcome, for_each_tenant, for_each_tenant_within,
};
pub use model::MissingField;
pub use multipart::Multipart;
pub use operation::{LimitScope, Method, RateLimit, TenantLimit};
#[cfg(feature = "redis")]
pub use pacing::RedisStore;
pub use pacing::{Pacing, PacingStore, TenantPacing};
pub use paging::Pages;
pub use raw_json::RawJson;
pub use retry::RetryPolicy;
pub use secret::Secret;
pub use sending::{Sending, Waiting};

// Application API only.
pub use deprecation::Deprecation;
pub use error::{ActivityError, ApiError, DecodeError};
pub use error_body::{
    ErrorBody, ErrorDetail, ErrorObjectBody, ErrorsArrayBody, ErrorsMapBody, FlatObjectBody,
    PortalBody, StatusMessageBody,
};
pub use futures_util::Stream;
pub use raw::RawRequest;
/// The HTTP client crate the runtime uses, for building a client to pass to
/// [`Config::http_client`] with a matching version.
pub use reqwest;
pub use response::{RawResponse, Response};
