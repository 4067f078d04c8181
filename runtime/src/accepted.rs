//! The answer to an asynchronous write ([`Accepted`]), which remembers how to wait for the work
//! it started, and the finished write ([`Completed`]).

use crate::sending::{Sending, Waiting};
use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::activity::{WaitOptions, wait};
use crate::bulk_wait::PendingActivity;
use crate::client::Client;
use crate::error::Error;
use crate::operation::Operation;
use crate::request::Request;
use crate::response::RawResponse;
use crate::tenant::Tenant;

/// The typed answer (`T`, usually `202 Accepted`) to an asynchronous write, with what it takes
/// to wait for the work it started: the answer's `requestId` and the tenant the write was sent
/// as.
///
/// It dereferences to the body; [`wait`](Self::wait) polls the activity (decoded as `A`) as
/// that same tenant, so a write sent for a delegated customer is waited for as that customer.
///
/// ```no_run
/// # extern crate ruckus_one_runtime as ruckus_one;
/// use ruckus_one::WaitOptions;
/// # async fn example(accepted: ruckus_one::Accepted<serde_json::Value, serde_json::Value>) -> Result<(), ruckus_one::Error> {
/// println!("request {:?} for tenant {:?}", accepted.request_id(), accepted.tenant());
/// let activity = accepted.wait(&WaitOptions::default()).await?;
/// println!("{activity} after {}", *accepted);
/// # Ok(()) }
/// ```
pub struct Accepted<T, A> {
    body: T,
    request_id: RequestId,
    created_id: Option<String>,
    tenant: Option<Tenant>,
    client: Client,
    activity: &'static Operation,
    kind: PhantomData<fn() -> A>,
}

/// The answer's request id, or the answer itself when it has none (for the error of
/// [`Accepted::wait`]).
enum RequestId {
    Found(String),
    Missing(Box<RawResponse>),
}

impl<T, A> Accepted<T, A> {
    /// The answer's top-level `requestId`, the id of the activity to wait for; `None` when the
    /// answer has none (then [`wait`](Self::wait) fails).
    pub fn request_id(&self) -> Option<&str> {
        match &self.request_id {
            RequestId::Found(id) => Some(id),
            RequestId::Missing(_) => None,
        }
    }

    /// The id of what this write created, wherever the answer carries it; `None` when it
    /// carries none (a delete, or a service that names nothing in its answer). The answer to
    /// a change may name the changed object the same way; then this is its id.
    ///
    /// Services answer a create in different shapes; this reads each of them, in this order:
    ///
    /// | answer | id read |
    /// |---|---|
    /// | `{"requestId", "response": {"id", ...}}` (the created object, or only its id) | `response.id` |
    /// | `{"requestId", "id"}`, or the created object itself with its `id` | the top-level `id` |
    ///
    /// An id is a non-empty string (a number is read as its decimal text). Read it here rather
    /// than from the typed body: the same code then works whichever shape the service uses.
    pub fn created_id(&self) -> Option<&str> {
        self.created_id.as_deref()
    }

    /// The delegated tenant the write was sent as (set on the call, else the client's), which
    /// [`wait`](Self::wait) polls as; `None` for the token's own tenant.
    pub fn tenant(&self) -> Option<&str> {
        self.tenant.as_ref().map(Tenant::id)
    }

    /// What an API client's `wait_all` needs to follow this write among many: its request
    /// id and tenant; `None` when the answer has no request id.
    pub fn pending(&self) -> Option<PendingActivity> {
        self.request_id()
            .map(|id| PendingActivity::of(id.to_owned(), self.tenant.clone(), &self.client))
    }

    /// The decoded answer.
    pub fn into_inner(self) -> T {
        self.body
    }
}

impl<T, A: DeserializeOwned> Accepted<T, A> {
    /// Waits for the work the write started to finish: polls the API's activity
    /// (`GET .../activities/{requestId}`) as the tenant the write was sent as, until it
    /// succeeds (the activity is returned) or fails, or `options.timeout` passes (both
    /// [`Error::Activity`]), exactly like `runtime::wait_for_activity_as`.
    ///
    /// It borrows the answer: after a timeout, wait again. An answer without a string
    /// `requestId` is an [`Error::Decode`] keeping the body.
    pub async fn wait(&self, options: &WaitOptions) -> Result<A, Error> {
        let request_id = match &self.request_id {
            RequestId::Found(id) => id,
            RequestId::Missing(raw) => {
                return Err(raw.as_ref().clone().into_decode_error(
                    "the answer has no `requestId` string to wait for the activity with",
                ));
            }
        };
        wait(
            &self.client,
            self.activity,
            request_id,
            self.tenant.clone(),
            options,
        )
        .await
    }
}

impl<T, A> Deref for Accepted<T, A> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.body
    }
}

impl<T: fmt::Debug, A> fmt::Debug for Accepted<T, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The body and the request id came from the service (the body holds the id too):
        // shown redacted, like everywhere else.
        let redactor = self.client.redactor();
        let request_id = self.request_id().map(|id| redactor.text(id));
        f.debug_struct("Accepted")
            .field("body", &redactor.debug(&self.body))
            .field("request_id", &request_id)
            .field("tenant", &self.tenant())
            .field("activity", &self.activity.id)
            .finish()
    }
}

/// A finished asynchronous write: the answer it was accepted with (`T`, for example the id of
/// the resource it created) and its successful activity (`A`). Returned by `send_and_wait`.
#[derive(Debug, Clone, PartialEq)]
pub struct Completed<T, A> {
    accepted: T,
    activity: A,
    created_id: Option<String>,
}

impl<T, A> Completed<T, A> {
    /// The id of what this write created, read from the answer as
    /// [`Accepted::created_id`] reads it.
    pub fn created_id(&self) -> Option<&str> {
        self.created_id.as_deref()
    }

    /// The decoded answer the write was accepted with.
    pub fn accepted(&self) -> &T {
        &self.accepted
    }

    /// The activity, finished with `SUCCESS`.
    pub fn activity(&self) -> &A {
        &self.activity
    }

    /// The answer and the activity, by value.
    pub fn into_parts(self) -> (T, A) {
        (self.accepted, self.activity)
    }
}

impl<'a> Request<'a> {
    /// Sends an asynchronous request and decodes its JSON answer as `T` (like
    /// [`send_json`](Self::send_json)), remembering the answer's `requestId`, the tenant the
    /// request acts for (the one set with [`Request::tenant`], else the client's delegated
    /// tenant) and `activity`, the API's `GET .../activities/{requestId}`, to wait with
    /// ([`Accepted::wait`]).
    pub fn send_accepted<T: DeserializeOwned + 'a, A: 'a>(
        self,
        activity: &'static Operation,
    ) -> Sending<'a, Accepted<T, A>> {
        let client = self.client().clone();
        let tenant = self.acting_tenant();
        Sending::new(self.send_boxed(), move |raw| {
            let answer = serde_json::from_slice::<Value>(raw.body()).unwrap_or(Value::Null);
            let body = match raw.json::<T>() {
                Ok(body) => body,
                Err(error) => accepted_anyway::<T>(&answer)
                    .or_else(|| no_content::<T>(raw.body()))
                    .ok_or(error)?,
            };
            let created_id = created_id(&answer);
            let request_id = match answer.get("requestId") {
                Some(Value::String(id)) if !id.is_empty() => Some(id.clone()),
                _ => None,
            };
            let request_id = match request_id {
                Some(id) => RequestId::Found(id),
                None => RequestId::Missing(Box::new(raw)),
            };
            Ok(Accepted {
                body,
                request_id,
                created_id,
                tenant,
                client,
                activity,
                kind: PhantomData,
            })
        })
    }

    /// Sends an asynchronous request and waits for it to finish:
    /// [`send_accepted`](Self::send_accepted), then [`Accepted::wait`] (polling as the same
    /// tenant as this request). Returns the decoded answer with the finished activity; an
    /// answer without a string `requestId` is an [`Error::Decode`] keeping the body.
    pub fn send_and_wait<
        T: DeserializeOwned + Send + Sync + 'a,
        A: DeserializeOwned + Send + 'a,
    >(
        self,
        activity: &'static Operation,
        options: &WaitOptions,
    ) -> Waiting<'a, Completed<T, A>> {
        let accepted = self.send_accepted::<T, A>(activity);
        let options = options.clone();
        Waiting::new(async move {
            let accepted = accepted.await?;
            let activity = accepted.wait(&options).await?;
            let created_id = accepted.created_id.clone();
            Ok(Completed {
                accepted: accepted.into_inner(),
                activity,
                created_id,
            })
        })
    }
}

/// The answer of an accepted write whose `response` its type cannot hold (a partial object:
/// `{"id": ...}` alone, `{}`), decoded without that `response`: the service took the write, so
/// the caller gets its request id and [`created_id`](Accepted::created_id) (read from the
/// answer as it came), never an error that would have it send the write again. `None` when the
/// answer has no request id, or its type cannot do without `response` either.
fn accepted_anyway<T: DeserializeOwned>(answer: &Value) -> Option<T> {
    let Some(Value::String(id)) = answer.get("requestId") else {
        return None;
    };
    if id.is_empty() {
        return None;
    }
    let mut without = answer.as_object()?.clone();
    without.remove("response");
    serde_json::from_value(Value::Object(without))
        .or_else(|_| serde_json::from_value(serde_json::json!({ "requestId": id })))
        .ok()
}

/// The answer of a write done at once, with no body (a `204 No Content` where the service can
/// also answer `202`): the type as an empty object, when it has no required field. It has no
/// request id, so there is nothing to wait for ([`Accepted::wait`] says so).
fn no_content<T: DeserializeOwned>(body: &[u8]) -> Option<T> {
    if !body.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    serde_json::from_value(Value::Object(serde_json::Map::new())).ok()
}

/// The id of what a write created, from its answer (see [`Accepted::created_id`]).
fn created_id(answer: &Value) -> Option<String> {
    let id_of = |value: &Value| match value.get("id") {
        Some(Value::String(id)) if !id.is_empty() => Some(id.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    answer
        .get("response")
        .and_then(id_of)
        .or_else(|| id_of(answer))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{created_id, no_content};

    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct NoContent {
        #[serde(rename = "requestId")]
        request_id: Option<String>,
    }

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct NeedsId {
        id: String,
    }

    #[test]
    fn an_empty_answer_is_the_type_as_an_empty_object() {
        assert_eq!(
            no_content::<NoContent>(b""),
            Some(NoContent { request_id: None })
        );
        assert_eq!(
            no_content::<NoContent>(b" \n"),
            Some(NoContent { request_id: None })
        );
        // Only an empty body, and only a type that needs nothing.
        assert_eq!(no_content::<NoContent>(b"{}"), None);
        assert!(no_content::<NeedsId>(b"").is_none());
    }

    #[test]
    fn the_created_object_in_response() {
        // The venue and Wi-Fi services' described answer: `response` is the created object.
        let answer = json!({"requestId": "r-1", "response": {"id": "v-1", "name": "Lobby"}});
        assert_eq!(created_id(&answer).as_deref(), Some("v-1"));
    }

    #[test]
    fn only_the_id_in_response() {
        // `EntityId` answers of the Wi-Fi service.
        let answer = json!({"requestId": "r-1", "response": {"id": "p-1"}});
        assert_eq!(created_id(&answer).as_deref(), Some("p-1"));
    }

    #[test]
    fn a_top_level_id_next_to_the_request_id() {
        // Identity, MAC registration and workflow services.
        let answer = json!({"requestId": "r-1", "id": "w-1"});
        assert_eq!(created_id(&answer).as_deref(), Some("w-1"));
    }

    #[test]
    fn the_created_object_itself() {
        // An answer that is the created object, with or without a request id.
        let answer = json!({"id": "pol-1", "name": "p", "policyType": "RADIUS", "requestId": "r"});
        assert_eq!(created_id(&answer).as_deref(), Some("pol-1"));
        assert_eq!(created_id(&json!({"id": 42})).as_deref(), Some("42"));
    }

    #[test]
    fn response_wins_over_a_top_level_id() {
        let answer = json!({"requestId": "r-1", "response": {"id": "inner"}, "id": "outer"});
        assert_eq!(created_id(&answer).as_deref(), Some("inner"));
    }

    #[test]
    fn answers_without_an_id() {
        for answer in [
            json!({"requestId": "r-1"}),
            json!({"requestId": "r-1", "response": {}}),
            json!({"requestId": "r-1", "response": {"name": "x"}}),
            json!({"requestId": "r-1", "response": null}),
            json!({"requestId": "r-1", "id": ""}),
            json!({"requestId": "r-1", "id": null}),
            json!([{"id": "a"}]),
            json!(null),
        ] {
            assert_eq!(created_id(&answer), None, "{answer}");
        }
    }

    /// An envelope as the generated client types it: the created object in `response`, its
    /// `name` required.
    #[derive(serde::Deserialize, Debug)]
    #[serde(rename_all = "camelCase")]
    struct Envelope {
        request_id: String,
        response: Option<Venue>,
    }

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Venue {
        name: String,
        id: Option<String>,
    }

    #[test]
    fn a_partial_response_of_an_accepted_write_is_no_error() {
        for answer in [
            json!({"requestId": "r-1", "response": {"id": "venue-0"}}),
            json!({"requestId": "r-1", "response": {}}),
            json!({"requestId": "r-1", "response": [1, 2]}),
        ] {
            assert!(serde_json::from_value::<Envelope>(answer.clone()).is_err());
            let typed: Envelope = super::accepted_anyway(&answer).expect("accepted");
            assert_eq!(typed.request_id, "r-1");
            assert!(typed.response.is_none());
        }
        let whole = json!({"requestId": "r-1", "response": {"id": "v", "name": "Lobby"}});
        assert!(super::accepted_anyway::<Envelope>(&json!({"response": {}})).is_none());
        assert!(
            super::accepted_anyway::<Envelope>(&json!({"requestId": "", "response": {}})).is_none()
        );
        let typed: Envelope =
            serde_json::from_value(whole).expect("a whole object decodes as it is");
        assert_eq!(typed.response.map(|v| v.name), Some("Lobby".to_owned()));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(10_000))]
        /// Whatever `response` an accepted write's answer carries, an answer with a request id
        /// decodes (as it is, or without its `response`) and keeps its created id.
        #[test]
        fn no_accepted_answer_with_a_request_id_is_an_error(response in any_json(3)) {
            let answer = json!({"requestId": "r-1", "response": response});
            let typed = serde_json::from_value::<Envelope>(answer.clone())
                .ok()
                .or_else(|| super::accepted_anyway::<Envelope>(&answer));
            proptest::prop_assert!(typed.is_some(), "{answer}");
            let id = answer["response"].get("id").and_then(|v| match v {
                serde_json::Value::String(s) if !s.is_empty() => Some(s.clone()),
                serde_json::Value::Number(n) => Some(n.to_string()),
                _ => None,
            });
            proptest::prop_assert_eq!(super::created_id(&answer), id);
        }
    }

    /// Any JSON value up to `depth` levels, objects often holding `id` and `name`.
    fn any_json(depth: u32) -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::from),
            any::<i64>().prop_map(serde_json::Value::from),
            "[a-z0-9-]{0,8}".prop_map(serde_json::Value::from),
        ];
        leaf.prop_recursive(depth, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::from),
                proptest::collection::btree_map(
                    prop_oneof![Just("id".to_owned()), Just("name".to_owned()), "[a-z]{1,6}"],
                    inner,
                    0..4
                )
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }
}
