//! Waiting for many activities together: the activities of writes sent within a short window
//! are waited for in one bulk wait (the runtime's `wait_all`: one activity query per tenant and
//! round for all of them, instead of one poll loop per write).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use ruckus_one_runtime::{self as rt, Client, PendingActivity, WaitOptions};
use serde_json::Value;
use tokio::sync::oneshot;

/// How long a batch waits for more activities before its first query.
const WINDOW: Duration = Duration::from_millis(100);

type Reply = oneshot::Sender<Result<Value, String>>;

/// Batches of activities to wait for, shared by every task of the server.
pub(crate) struct Poller {
    client: Client,
    query: &'static rt::internal::Operation,
    options: WaitOptions,
    forming: Mutex<Option<Vec<(PendingActivity, Reply)>>>,
}

impl Poller {
    pub(crate) fn new(
        client: Client,
        query: &'static rt::internal::Operation,
        options: WaitOptions,
    ) -> Arc<Poller> {
        Arc::new(Poller {
            client,
            query,
            options,
            forming: Mutex::new(None),
        })
    }

    /// The activity `pending` once it ends (its final state), waited for with the others of its
    /// batch.
    pub(crate) async fn wait(self: &Arc<Self>, pending: PendingActivity) -> Result<Value, String> {
        let (reply, answer) = oneshot::channel();
        let start = {
            let mut forming = self.forming.lock().unwrap_or_else(|e| e.into_inner());
            let start = forming.is_none();
            forming.get_or_insert_with(Vec::new).push((pending, reply));
            start
        };
        if start {
            let poller = self.clone();
            tokio::spawn(async move { poller.run_batch().await });
        }
        answer
            .await
            .unwrap_or_else(|_| Err("the activity wait stopped".to_owned()))
    }

    /// Waits for the batch formed during [`WINDOW`] and answers each of its writes.
    async fn run_batch(&self) {
        tokio::time::sleep(WINDOW).await;
        let batch = self
            .forming
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .unwrap_or_default();
        let (pending, replies): (Vec<PendingActivity>, Vec<Reply>) = batch.into_iter().unzip();
        let results =
            rt::internal::wait_all::<Value>(&self.client, self.query, pending, &self.options).await;
        match results {
            Ok(results) => {
                for (reply, result) in replies.into_iter().zip(results) {
                    let _ = reply.send(result.map_err(|e| e.to_string()));
                }
            }
            Err(e) => {
                for reply in replies {
                    let _ = reply.send(Err(e.to_string()));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Index;
    use crate::invoke::{Call, activity_op};
    use ruckus_one_sim::{SimConfig, Simulator};
    use serde_json::json;

    #[tokio::test]
    async fn writes_sent_together_are_waited_for_with_one_query_per_round() {
        let sim = Simulator::start_with(SimConfig::default().manual_clock())
            .await
            .unwrap();
        let connection = crate::connect::of_simulator(sim).unwrap();
        let sim = connection.local.as_ref().unwrap();
        let index = Index::new(ruckus_one_catalog::Catalog::get().unwrap());
        let create = index.get("create_venue").unwrap();
        let mut pending = Vec::new();
        for name in ["North", "South", "East"] {
            let body = json!({"name": name, "address": {"city": "Oslo", "country": "NO"}});
            let args = crate::args::check(create, &serde_json::Map::new(), Some(&body)).unwrap();
            let call = Call {
                op: create,
                args,
                tenant: None,
                page: None,
            };
            let (_, p) = call
                .send_accepted(&connection.client, &index)
                .await
                .unwrap();
            pending.push(p.expect("an activity"));
        }
        // Every activity has ended by the first query.
        sim.advance(Duration::from_secs(10));
        let query = activity_op(&index, "query_activities").unwrap();
        let poller = Poller::new(connection.client.clone(), query, WaitOptions::default());
        let [a, b, c] = [0, 1, 2].map(|i| poller.wait(pending[i].clone()));
        let (a, b, c) = tokio::join!(a, b, c);
        for result in [a, b, c] {
            assert_eq!(result.unwrap()["status"], "SUCCESS");
        }
        let queries = sim
            .requests()
            .iter()
            .filter(|r| r.operation.as_deref() == Some("query_activities"))
            .count();
        assert_eq!(queries, 1, "one activity query for the three writes");
    }
}
