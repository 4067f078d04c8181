//! Sending a checked call through the runtime, and the answer as the model sees it.

use std::time::Duration;

use ruckus_one_catalog::ResponseKind;
use ruckus_one_runtime::internal::described::{self, Arguments};
use ruckus_one_runtime::{self as rt, Client, Error, PendingActivity};
use serde_json::{Value, json};

use crate::args::Checked;
use crate::index::{Index, Op};
use crate::ops;
use crate::paging::Page;

/// A call ready to send.
#[derive(Debug, Clone)]
pub(crate) struct Call {
    pub op: Op,
    pub args: Checked,
    /// The customer tenant acted for (`None`: the credential's own).
    pub tenant: Option<String>,
    pub page: Option<Page>,
}

/// How long a call may keep meeting `429` answers the runtime gave up on before the server
/// says the service is busy (the runtime has already waited as the service asked).
const BUSY_WAIT: Duration = Duration::from_secs(60);

impl Call {
    /// The runtime's request for the call (its one road from a catalog entry to a request).
    fn request<'c>(&self, client: &'c Client) -> Result<rt::internal::Request<'c>, String> {
        let route = self.op.route;
        let owned = |(n, v): &(&str, String)| ((*n).to_owned(), v.clone());
        let mut args = Arguments {
            path: self.args.path.clone(),
            query: self.args.query.iter().map(owned).collect(),
            headers: self.args.headers.iter().map(owned).collect(),
            body: self.args.body.clone(),
            version: 0,
            tenant: self.tenant.clone(),
        };
        if let (Some(page), Some(paging)) = (&self.page, route.paging.as_ref()) {
            for (name, value) in page.query(paging) {
                args.query.push((name.to_owned(), value));
            }
            args.body = page.body(paging, args.body);
        }
        described::request(client, self.op.table, route, &args).map_err(|e| e.to_string())
    }

    /// Sends the call and returns its answer: JSON as it is (a page as whole rows), text
    /// as a string, other bodies described.
    pub(crate) async fn send(&self, client: &Client) -> Result<Value, String> {
        let request = self.request(client)?;
        let answer = patiently(|| request.clone().send_raw())
            .await
            .map_err(|e| e.to_string())?;
        let route = self.op.route;
        let value = match route.response.kind {
            ResponseKind::Json if answer.body().is_empty() => Value::Null,
            ResponseKind::Json => answer.json::<Value>().map_err(|e| e.to_string())?,
            ResponseKind::Text => Value::String(answer.text().map_err(|e| e.to_string())?),
            ResponseKind::Binary => json!(format!(
                "{} bytes of {} (not shown)",
                answer.body().len(),
                route.response.media_type
            )),
            ResponseKind::Empty => Value::Null,
        };
        match (&self.page, route.paging.as_ref()) {
            (Some(page), Some(paging)) => page.shape(paging, value),
            _ => Ok(value),
        }
    }

    /// Sends an asynchronous write and returns what it takes to wait for it: the answer and
    /// the activity to wait for (none when the service answered without a request id).
    pub(crate) async fn send_accepted(
        &self,
        client: &Client,
        index: &Index,
    ) -> Result<(Value, Option<PendingActivity>), String> {
        let request = self.request(client)?;
        let activity = activity_op(index, "get_activity")?;
        let accepted = patiently(|| request.clone().send_accepted::<Value, Value>(activity))
            .await
            .map_err(|e| e.to_string())?;
        let mut answer = json!({ "accepted": true });
        if let Some(id) = accepted.request_id() {
            answer["requestId"] = json!(id);
        }
        if let Some(id) = accepted.created_id() {
            answer["id"] = json!(id);
        }
        let pending = accepted.pending();
        answer["response"] = accepted.into_inner();
        Ok((answer, pending))
    }
}

/// The runtime's operation `id` of the activities API.
pub(crate) fn activity_op(
    index: &Index,
    id: &str,
) -> Result<&'static rt::internal::Operation, String> {
    let op = index
        .get(id)
        .ok_or_else(|| format!("the tables have no `{id}` operation"))?;
    Ok(ops::operation(op.table, op.route))
}

/// An error that may say the service is busy (a `429`), and how long it asked to wait.
pub(crate) trait Busy {
    fn busy(&self) -> Option<Option<Duration>>;
}

impl Busy for Error {
    fn busy(&self) -> Option<Option<Duration>> {
        (self.status() == Some(429)).then(|| self.retry_after())
    }
}

/// Runs `send` again while the service still answers `429` after the runtime's own pacing and
/// retries: waits as it asks (or 2, 4, 8... s) for up to [`BUSY_WAIT`] in all, so a model
/// never has to handle a rate limit itself.
async fn patiently<T, E: Busy, F, Fut>(mut send: F) -> Result<T, E>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, E>>,
{
    let mut waited = Duration::ZERO;
    let mut pause = Duration::from_secs(2);
    loop {
        match send().await {
            Err(e) if waited < BUSY_WAIT && e.busy().is_some() => {
                let asked = e.busy().flatten();
                let wait = asked.unwrap_or(pause).min(BUSY_WAIT - waited);
                tokio::time::sleep(wait).await;
                waited += wait;
                pause = (pause * 2).min(Duration::from_secs(16));
            }
            other => return other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    /// A `429` answer, with the wait it asks for.
    #[derive(Debug)]
    struct TooMany(Option<Duration>);

    impl Busy for TooMany {
        fn busy(&self) -> Option<Option<Duration>> {
            Some(self.0)
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_429_that_escapes_the_runtime_is_waited_out() {
        let calls = AtomicU32::new(0);
        let start = tokio::time::Instant::now();
        let result: Result<u32, TooMany> = patiently(|| async {
            let n = calls.fetch_add(1, Ordering::SeqCst);
            if n < 3 { Err(TooMany(None)) } else { Ok(n) }
        })
        .await;
        assert_eq!(result.unwrap(), 3);
        // 2 + 4 + 8 s on the paused clock.
        assert_eq!(start.elapsed(), Duration::from_secs(14));
    }

    #[tokio::test(start_paused = true)]
    async fn the_wait_the_service_asks_for_is_kept_and_bounded() {
        let start = tokio::time::Instant::now();
        let result: Result<(), TooMany> =
            patiently(|| async { Err(TooMany(Some(Duration::from_secs(25)))) }).await;
        assert!(result.is_err());
        assert_eq!(start.elapsed(), BUSY_WAIT);
    }
}
