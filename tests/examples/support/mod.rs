//! Shared by the examples: talk to the real RUCKUS One service, or to a local stand-in.
//!
//! An example runs locally when it is started with `--dry-run` or when `RUCKUS_CLIENT_ID` is not
//! set: against the simulator (`ruckus-one-sim`, in process; it checks bodies, media types and
//! statuses against the spec and keeps state) where it can serve the example, else against a
//! fake (a wiremock server on 127.0.0.1 answering canned JSON, for answers the simulator does not
//! make, such as a scripted sequence of 429s). Otherwise it reads its settings with
//! `Config::from_env()` (`RUCKUS_CLIENT_ID`, `RUCKUS_CLIENT_SECRET`, `RUCKUS_TENANT_ID`,
//! `RUCKUS_REGION`) and calls the real service.
//!
//! Cargo builds only `examples/*.rs` (and `examples/*/main.rs`) as examples, so this file is
//! compiled into each example through its `mod support;` declaration.
#![allow(dead_code)] // each example uses a different subset

use std::sync::atomic::{AtomicUsize, Ordering};

use ruckus_one::runtime::env;
use ruckus_one::{Client, Config, Credentials, Error};
use ruckus_one_sim::{SimConfig, Simulator};
use wiremock::matchers::{body_string, header, method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// Credentials the fake expects; never valid anywhere else.
const FAKE_CLIENT_ID: &str = "example-client-id";
const FAKE_CLIENT_SECRET: &str = "example-client-secret";
/// The tenant that owns the fake application token.
pub const FAKE_TENANT_ID: &str = "3f6a2b8c9d0e4f1a8b7c6d5e4f3a2b1c";

/// Where the example's calls go.
pub enum Target {
    /// A local fake service; its mocks check every call and its expectations are verified at
    /// the end by [`Target::finish`].
    Fake(MockServer),
    /// The simulator, in process.
    Sim(Simulator),
    /// The real service, configured from the environment.
    Live,
}

/// Whether the example runs locally (`--dry-run`, or no `RUCKUS_CLIENT_ID`).
fn dry_run() -> bool {
    std::env::args().skip(1).any(|arg| arg == "--dry-run")
        || std::env::var_os(env::CLIENT_ID).is_none()
}

impl Target {
    /// The simulator when running locally (its activities take 200 ms on its clock); else the
    /// real service.
    pub async fn choose_simulated() -> Target {
        Target::choose_simulated_with(SimConfig::default()).await
    }

    /// [`Target::choose_simulated`] with the simulator configured by `config` (customers,
    /// more credentials); its activities take 200 ms.
    pub async fn choose_simulated_with(config: SimConfig) -> Target {
        if !dry_run() {
            println!("live: calling RUCKUS One with the settings of the RUCKUS_* variables");
            return Target::Live;
        }
        let config = config.activity_duration(std::time::Duration::from_millis(200));
        let sim = Simulator::start_with(config)
            .await
            .expect("the simulator starts on 127.0.0.1");
        println!("dry run: simulator at {}", sim.base_url());
        Target::Sim(sim)
    }

    /// The simulator, to inspect what the example left there; `None` otherwise.
    pub fn simulator(&self) -> Option<&Simulator> {
        match self {
            Target::Sim(sim) => Some(sim),
            _ => None,
        }
    }

    /// A fake when the command line has `--dry-run` or `RUCKUS_CLIENT_ID` is not set, with the
    /// token endpoint already answering; else the real service.
    pub async fn choose() -> Target {
        if !dry_run() {
            println!("live: calling RUCKUS One with the settings of the RUCKUS_* variables");
            return Target::Live;
        }
        let server = MockServer::start().await;
        // The runtime asks `{host}/oauth2/token/{token tenant id}` with a form-encoded
        // client-credentials grant, as it does against the real service.
        Mock::given(method("POST"))
            .and(path(format!("/oauth2/token/{FAKE_TENANT_ID}")))
            .and(header("content-type", "application/x-www-form-urlencoded"))
            .and(body_string(format!(
                "grant_type=client_credentials&client_id={FAKE_CLIENT_ID}&client_secret={FAKE_CLIENT_SECRET}"
            )))
            .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({
                "access_token": "example-access-token",
                "token_type": "Bearer",
                "expires_in": 7199
            })))
            .named("token endpoint")
            .mount(&server)
            .await;
        println!("dry run: fake RUCKUS One at {}", server.uri());
        Target::Fake(server)
    }

    /// The fake server, to mount the answers of the example's calls on; `None` when live.
    pub fn fake(&self) -> Option<&MockServer> {
        match self {
            Target::Fake(server) => Some(server),
            _ => None,
        }
    }

    /// A client for the target: pointed at the fake with `base_url`, or configured with
    /// `Config::from_env()` (which names any missing or invalid variable).
    pub fn client(&self) -> Result<Client, Error> {
        let config = match self {
            Target::Fake(server) => {
                Config::new(Credentials::new(FAKE_CLIENT_ID, FAKE_CLIENT_SECRET))
                    .token_tenant_id(FAKE_TENANT_ID)
                    .base_url(server.uri())
            }
            Target::Sim(sim) => {
                let (id, secret) = sim.credentials();
                Config::new(Credentials::new(id, secret))
                    .token_tenant_id(sim.tenant_id())
                    .base_url(sim.base_url())
            }
            Target::Live => Config::from_env()?,
        };
        Client::new(config)
    }

    /// Checks that the fake received every call its mocks expect (panics otherwise).
    pub async fn finish(self) {
        if let Target::Fake(server) = self {
            server.verify().await;
        }
    }
}

/// Answers the given responses in order, then repeats the last one.
pub struct Sequence {
    answers: Vec<ResponseTemplate>,
    calls: AtomicUsize,
}

/// A responder answering `answers` in order (the last one again for any further call).
pub fn sequence(answers: Vec<ResponseTemplate>) -> Sequence {
    assert!(!answers.is_empty(), "a sequence needs an answer");
    Sequence {
        answers,
        calls: AtomicUsize::new(0),
    }
}

impl Respond for Sequence {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        let n = self.calls.fetch_add(1, Ordering::SeqCst);
        self.answers[n.min(self.answers.len() - 1)].clone()
    }
}

/// A 200 answer with a JSON body in the vendor media type the generated operations ask for by
/// default (`application/vnd.ruckus.v1+json`).
pub fn ok_v1(body: serde_json::Value) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_raw(body.to_string(), "application/vnd.ruckus.v1+json")
}
