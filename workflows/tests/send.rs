//! Every workflow's future is `Send`, so an application can run it on a spawned task (a
//! server driving many customers at once). This file compiles only if they are.

use ruckus_one_runtime::Client;
use ruckus_one_workflows::batch::{Batch, Options};
use ruckus_one_workflows::journal::Journal;
use ruckus_one_workflows::report::{self, CsvSink, Report, Scope};
use ruckus_one_workflows::swap::{self, Connection, Step};

/// `future`, if it may be spawned on a multi-threaded runtime.
fn spawnable<F: Future + Send + 'static>(future: F) -> F {
    future
}

async fn batch(client: Client, batch: Batch) {
    let mut journal = Journal::none();
    let _ = batch
        .run(&client, &mut journal, &Options::default(), &|_| {})
        .await;
}

async fn report(client: Client) {
    let mut sink = CsvSink::new(Vec::new());
    let _ = report::run(&client, Report::Inventory, &Scope::AllCustomers, &mut sink).await;
}

async fn swap(client: Client, steps: Vec<Step>, mut journal: swap::Journal) {
    let Ok(conn) = Connection::new(&client, None) else {
        return;
    };
    let mut confirm = |_: &Step| true;
    let _ = swap::run(&conn, &steps, &mut journal, &mut confirm).await;
}

#[test]
fn every_workflow_runs_on_a_spawned_task() {
    // Built, never run: what is checked is that each future may be spawned.
    let checks = (
        |c: Client, b: Batch| spawnable(batch(c, b)),
        |c: Client| spawnable(report(c)),
        |c: Client, s: Vec<Step>, j: swap::Journal| spawnable(swap(c, s, j)),
    );
    let _ = checks;
}
