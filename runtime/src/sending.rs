//! The futures a request's `send` methods return, as named types: generated operations say
//! `-> Sending<'a, Venue>` rather than `-> impl Future<Output = ...>`, which the compiler
//! checks once here instead of once per operation (about a quarter of the client crate's
//! type checking), and an application can keep one in a struct field by its name.

use crate::execute::SendFuture;
use crate::{Error, RawResponse, Response};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

/// What turns the success answer into the call's result (a decoding that captures nothing,
/// the usual case, is boxed without allocating).
type Finish<'a, T> = Box<dyn FnOnce(RawResponse) -> Result<T, Error> + Send + 'a>;

/// A request on its way: await it for the decoded answer (`T`) or the call's [`Error`].
///
/// Nothing is sent until it is first polled; dropping it cancels the call.
#[must_use = "a request does nothing until it is awaited"]
pub struct Sending<'a, T> {
    sent: SendFuture<'a>,
    finish: Option<Finish<'a, T>>,
}

impl<'a, T> Sending<'a, T> {
    pub(crate) fn new(
        sent: SendFuture<'a>,
        finish: impl FnOnce(RawResponse) -> Result<T, Error> + Send + 'a,
    ) -> Self {
        Sending {
            sent,
            finish: Some(Box::new(finish)),
        }
    }
}

impl<'a, T: 'a> Sending<'a, T> {
    /// The same call, answering its result together with the answer's status, headers and
    /// request id: `request.send().with_response().await?` gives a [`Response`].
    pub fn with_response(self) -> Sending<'a, Response<T>> {
        let finish = self.finish;
        Sending::new(self.sent, move |raw: RawResponse| {
            let meta = raw.with_body(());
            match finish {
                Some(finish) => finish(raw).map(|body| meta.map(|()| body)),
                None => Err(polled_again()),
            }
        })
    }
}

impl<T> Future for Sending<'_, T> {
    type Output = Result<T, Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        let raw = ready!(this.sent.as_mut().poll(cx))?;
        Poll::Ready(match this.finish.take() {
            Some(finish) => finish(raw),
            None => Err(polled_again()),
        })
    }
}

impl<T> fmt::Debug for Sending<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sending").finish_non_exhaustive()
    }
}

/// A request sent, then waited for until the work it started has finished (`send_and_wait`):
/// await it for the answer with the finished activity.
#[must_use = "a request does nothing until it is awaited"]
pub struct Waiting<'a, T>(Pin<Box<dyn Future<Output = Result<T, Error>> + Send + 'a>>);

impl<'a, T> Waiting<'a, T> {
    pub(crate) fn new(steps: impl Future<Output = Result<T, Error>> + Send + 'a) -> Self {
        Waiting(Box::pin(steps))
    }
}

impl<T> Future for Waiting<'_, T> {
    type Output = Result<T, Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        self.get_mut().0.as_mut().poll(cx)
    }
}

impl<T> fmt::Debug for Waiting<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Waiting").finish_non_exhaustive()
    }
}

/// A finished call polled again: an error rather than a panic.
fn polled_again() -> Error {
    Error::invalid("the request was already answered (a finished future polled again)")
}
