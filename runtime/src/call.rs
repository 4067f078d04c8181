//! [`Call`]: one call of an operation that has no optional parameters, ready to be adjusted and
//! sent. The generated client returns it from such operations (most of them), so the per-call
//! settings and the send methods are compiled once here rather than once per operation.

use crate::accepted::{Accepted, Completed};
use crate::activity::WaitOptions;
use crate::error::Error;
use crate::operation::Operation;
use crate::request::Request;
use crate::retry::RetryPolicy;
use crate::sending::{Sending, Waiting};
use serde::de::DeserializeOwned;
use std::fmt;
use std::marker::PhantomData;
use std::time::Duration;

/// One call of an operation: change what differs for this call, then send it.
///
/// `T` is what `send` answers; `V` is the operation's choice of representations (one of the
/// API's `versions` enums), or `()` when it has a single one. Nothing is sent until the future
/// that `send` returns is awaited.
///
/// ```no_run
/// # async fn example(client: &ruckus_one_runtime::Client) -> Result<(), ruckus_one_runtime::Error> {
/// # let call: ruckus_one_runtime::Call<'_, serde_json::Value> = unimplemented!();
/// // `call` as returned by an operation, e.g. `client.network().wireless_venues().get_venue(id)`
/// let venue = call
///     .tenant("a-customer-tenant-id")
///     .timeout(std::time::Duration::from_secs(10))
///     .send()
///     .await?;
/// # Ok(()) }
/// ```
#[must_use = "a request does nothing until `send` is awaited"]
pub struct Call<'a, T, V = ()> {
    req: Request<'a>,
    answer: Answer<'a, T>,
    version: PhantomData<fn(V)>,
}

/// How a call's answer is decoded.
enum Answer<'a, T> {
    /// A decoding of the success body.
    Plain(fn(Request<'a>) -> Sending<'a, T>),
    /// An asynchronous write's answer, which waits by polling this activity operation.
    Accepted(
        fn(Request<'a>, &'static Operation) -> Sending<'a, T>,
        &'static Operation,
    ),
}

/// The representations (media types) an operation can send and accept, as the generated
/// `versions` enums list them; the first (index 0) is the default.
pub trait Representation: Copy {
    /// The position of this representation in the operation's list.
    fn index(self) -> usize;
}

impl<'a> Request<'a> {
    /// This request as a [`Call`] answered by `send` (`Request::send_json`, `send_empty`, ...).
    pub fn call<T, V>(self, send: fn(Request<'a>) -> Sending<'a, T>) -> Call<'a, T, V> {
        Call {
            req: self,
            answer: Answer::Plain(send),
            version: PhantomData,
        }
    }

    /// This asynchronous request as a [`Call`] answered by an [`Accepted`], which waits by
    /// polling `activity` (see [`Request::send_accepted`]).
    pub fn accepted_call<T, A, V>(self, activity: &'static Operation) -> Call<'a, Accepted<T, A>, V>
    where
        T: DeserializeOwned + 'a,
        A: 'a,
    {
        Call {
            req: self,
            answer: Answer::Accepted(Request::send_accepted, activity),
            version: PhantomData,
        }
    }
}

impl<'a, T, V> Call<'a, T, V> {
    /// Acts for a delegated tenant on this call only, instead of the client's.
    pub fn tenant(mut self, tenant_id: &str) -> Self {
        self.req.tenant(tenant_id);
        self
    }

    /// Sends and accepts `version` instead of the operation's default representation.
    pub fn version(mut self, version: V) -> Self
    where
        V: Representation,
    {
        self.req.version(version.index());
        self
    }

    /// Limits the whole call (token, attempts and the waits between them) to `timeout`.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.req.timeout(timeout);
        self
    }

    /// Retries this call by `policy` instead of the client's policy.
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.req.retry(policy);
        self
    }

    /// Sends the call; the future answers the decoded success body, or the call's `Error`.
    /// For an asynchronous write it is an `Accepted`, whose `wait` polls the work as the
    /// call's tenant.
    pub fn send(self) -> Sending<'a, T> {
        match self.answer {
            Answer::Plain(send) => send(self.req),
            Answer::Accepted(send, activity) => send(self.req, activity),
        }
    }
}

impl<'a, T, A, V> Call<'a, Accepted<T, A>, V>
where
    T: DeserializeOwned + Send + Sync + 'a,
    A: DeserializeOwned + Send + 'a,
{
    /// Sends an asynchronous write and waits for the work it started: `send`, then
    /// `Accepted::wait`, polling as the call's tenant. Answers the decoded answer with the
    /// finished activity; a failed activity or the timeout is `Error::Activity`, an answer
    /// without a `requestId` an `Error::Decode` keeping the body.
    pub fn send_and_wait(self, options: &WaitOptions) -> Waiting<'a, Completed<T, A>> {
        match self.answer {
            Answer::Accepted(_, activity) => self.req.send_and_wait(activity, options),
            // Only `accepted_call` makes a call that answers an `Accepted`.
            Answer::Plain(_) => Waiting::new(async {
                Err(Error::invalid(
                    "this operation's answer names no activity to wait for",
                ))
            }),
        }
    }
}

impl<T, V> fmt::Debug for Call<'_, T, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Call").field("request", &self.req).finish()
    }
}
