//! The answer to an asynchronous write ([`Accepted`]), which remembers how to wait for the work
//! it started, and the finished write ([`Completed`]).

use std::fmt;
use std::future::Future;
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
}

impl<T, A> Completed<T, A> {
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

impl Request<'_> {
    /// Sends an asynchronous request and decodes its JSON answer as `T` (like
    /// [`send_json`](Self::send_json)), remembering the answer's `requestId`, the tenant the
    /// request acts for (the one set with [`Request::tenant`], else the client's delegated
    /// tenant) and `activity`, the API's `GET .../activities/{requestId}`, to wait with
    /// ([`Accepted::wait`]).
    pub fn send_accepted<T: DeserializeOwned, A>(
        self,
        activity: &'static Operation,
    ) -> impl Future<Output = Result<Accepted<T, A>, Error>> {
        let client = self.client().clone();
        let tenant = self.acting_tenant();
        let sent = self.send_raw();
        async move {
            let raw = sent.await?;
            let body = raw.json::<T>()?;
            let request_id = match serde_json::from_slice::<Value>(raw.body()) {
                Ok(Value::Object(map)) => match map.get("requestId") {
                    Some(Value::String(id)) if !id.is_empty() => Some(id.clone()),
                    _ => None,
                },
                _ => None,
            };
            let request_id = match request_id {
                Some(id) => RequestId::Found(id),
                None => RequestId::Missing(Box::new(raw)),
            };
            Ok(Accepted {
                body,
                request_id,
                tenant,
                client,
                activity,
                kind: PhantomData,
            })
        }
    }

    /// Sends an asynchronous request and waits for it to finish:
    /// [`send_accepted`](Self::send_accepted), then [`Accepted::wait`] (polling as the same
    /// tenant as this request). Returns the decoded answer with the finished activity; an
    /// answer without a string `requestId` is an [`Error::Decode`] keeping the body.
    pub fn send_and_wait<T: DeserializeOwned, A: DeserializeOwned>(
        self,
        activity: &'static Operation,
        options: &WaitOptions,
    ) -> impl Future<Output = Result<Completed<T, A>, Error>> {
        let accepted = self.send_accepted::<T, A>(activity);
        async move {
            let accepted = accepted.await?;
            let activity = accepted.wait(options).await?;
            Ok(Completed {
                accepted: accepted.into_inner(),
                activity,
            })
        }
    }
}
