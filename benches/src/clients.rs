//! The two clients making the same calls: the generated client, and what a user writes by hand
//! with `reqwest` and `serde_json`, decoding into the same generated types.

use std::time::Duration;

use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderValue};
use ruckus_one::network::activities::{Activity, ActivityStatus};
use ruckus_one::network::common::{QueryRequest, QueryResult};
use ruckus_one::network::wireless_aps::AccessPoint;
use ruckus_one::{Client, Config, Credentials, Pacing, WaitOptions};
use serde::de::DeserializeOwned;

/// The media type `query_venue_aps` sends and accepts by default.
const V1: &str = "application/vnd.ruckus.v1+json";

/// The hand-written client's `User-Agent`, as long as the generated client's default one
/// (`ruckus-one-rust/<version>`).
const HAND_USER_AGENT: &str = concat!("hand-written-rs/", env!("CARGO_PKG_VERSION"));

pub type Failure = Box<dyn std::error::Error + Send + Sync>;

/// The generated client for the server at `base`. Pacing is off: the local server has no rate
/// limit, and the hand-written client does not pace either (pacing's own cost, one lock per
/// call, is measured by the runtime's tests, not here).
pub fn generated(base: &str) -> Client {
    let config = Config::new(Credentials::new("bench-client", "bench-secret-0123456789"))
        .base_url(base)
        .pacing(Pacing::off());
    Client::new(config).expect("valid configuration")
}

/// The query body of the benchmark's AP page calls.
pub fn page_query(page: i64) -> QueryRequest {
    let mut query = QueryRequest::new();
    query.page = Some(page);
    query.page_size = Some(25);
    query.fields = Some(vec!["serialNumber".into(), "name".into(), "status".into()]);
    query
}

/// The generated client's `query_venue_aps` (`POST /venues/aps/query`, typed `QueryResult`).
pub async fn generated_page(client: &Client, query: &QueryRequest) -> Result<QueryResult, Failure> {
    Ok(client
        .network()
        .wireless_aps()
        .query_venue_aps(query)
        .send()
        .await?)
}

/// The generated client's `get_venue_ap` (`GET /venues/{venueId}/aps/{serialNumber}`, typed
/// `AccessPoint`).
pub async fn generated_ap(client: &Client) -> Result<AccessPoint, Failure> {
    Ok(client
        .network()
        .wireless_aps()
        .get_venue_ap("venue-1", "302139000123")
        .send()
        .await?)
}

/// The generated client's `get_activity` on an answer of `{}` (all of `Activity`'s fields are
/// optional): the per-call cost with next to nothing to decode.
pub async fn generated_empty(client: &Client) -> Result<Activity, Failure> {
    Ok(client
        .network()
        .activities()
        .get_activity("empty")
        .send()
        .await?)
}

/// Polling with the generated client's waiter, without pauses between polls.
pub async fn generated_wait(client: &Client, request_id: &str) -> Result<Activity, Failure> {
    let options = WaitOptions::default()
        .initial_interval(Duration::ZERO)
        .max_interval(Duration::ZERO)
        .timeout(Duration::from_secs(60));
    Ok(client
        .network()
        .wait_for_activity(request_id, &options)
        .await?)
}

/// Hand-written calls: one `reqwest::Client`, a token fetched once, JSON by `serde_json`.
#[derive(Clone)]
pub struct Hand {
    http: reqwest::Client,
    base: String,
    bearer: HeaderValue,
}

impl Hand {
    /// Fetches a token (client credentials, form-encoded) and keeps it.
    ///
    /// The client names itself in a `User-Agent` header, as the generated one does by default,
    /// so that both send the same headers: the comparison is of the clients' work, not of what
    /// the (in-process) server parses. Without it, the generated client's requests carry one
    /// header more, which cost 1-3 % of the CPU per call on the empty body.
    pub async fn connect(base: &str) -> Result<Hand, Failure> {
        let http = reqwest::Client::builder()
            .user_agent(HAND_USER_AGENT)
            .build()?;
        let answer: serde_json::Value = decode(
            http.post(format!("{base}/oauth2/token"))
                .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
                .body("grant_type=client_credentials&client_id=bench-client&client_secret=bench-secret-0123456789")
                .send()
                .await?,
        )
        .await?;
        let token = answer["access_token"].as_str().ok_or("no access_token")?;
        Ok(Hand {
            http,
            base: base.to_owned(),
            bearer: HeaderValue::from_str(&format!("Bearer {token}"))?,
        })
    }

    /// `POST /venues/aps/query` into `QueryResult`.
    pub async fn page(&self, query: &QueryRequest) -> Result<QueryResult, Failure> {
        let body = serde_json::to_vec(query)?;
        let response = self
            .http
            .post(format!("{}/venues/aps/query", self.base))
            .header(AUTHORIZATION, self.bearer.clone())
            .header(ACCEPT, V1)
            .header(CONTENT_TYPE, V1)
            .body(body)
            .send()
            .await?;
        decode(response).await
    }

    /// `GET /venues/{venueId}/aps/{serialNumber}` into `AccessPoint`.
    pub async fn ap(&self) -> Result<AccessPoint, Failure> {
        let response = self
            .http
            .get(format!("{}/venues/venue-1/aps/302139000123", self.base))
            .header(AUTHORIZATION, self.bearer.clone())
            .header(ACCEPT, V1)
            .send()
            .await?;
        decode(response).await
    }

    /// `GET /activities/empty` (`{}`) into `Activity`.
    pub async fn empty(&self) -> Result<Activity, Failure> {
        let response = self
            .http
            .get(format!("{}/activities/empty", self.base))
            .header(AUTHORIZATION, self.bearer.clone())
            .header(ACCEPT, "application/json")
            .send()
            .await?;
        decode(response).await
    }

    /// Polls `GET /activities/{id}` until `SUCCESS`, without pauses.
    pub async fn wait(&self, request_id: &str) -> Result<Activity, Failure> {
        loop {
            let response = self
                .http
                .get(format!("{}/activities/{request_id}", self.base))
                .header(AUTHORIZATION, self.bearer.clone())
                .header(ACCEPT, "application/json")
                .send()
                .await?;
            let activity: Activity = decode(response).await?;
            match activity.status {
                Some(ActivityStatus::Success) => return Ok(activity),
                Some(ActivityStatus::Fail) => return Err("activity failed".into()),
                _ => {}
            }
        }
    }
}

async fn decode<T: DeserializeOwned>(response: reqwest::Response) -> Result<T, Failure> {
    let status = response.status();
    if !status.is_success() {
        return Err(format!("HTTP {status}").into());
    }
    let bytes = response.bytes().await?;
    Ok(serde_json::from_slice(&bytes)?)
}
