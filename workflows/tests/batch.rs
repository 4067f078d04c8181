//! Batch runs against the simulator on loopback: creates from CSV and JSON lines, `{column}`
//! in a path, a bad row refused before any call, a resume that finds what a killed run sent.

use ruckus_one_catalog::Catalog;
use ruckus_one_runtime::internal::described::{self, Arguments};
use ruckus_one_runtime::{Client, Config, Credentials, WaitOptions};
use ruckus_one_sim::{SimConfig, Simulator};
use ruckus_one_state::{Entry, StepState};
use ruckus_one_workflows::Error;
use ruckus_one_workflows::batch::{Batch, Operation, Options, Outcome};
use ruckus_one_workflows::journal::{Journal, step};
use ruckus_one_workflows::rows::{Format, Input};
use std::time::Duration;

async fn sim() -> Simulator {
    Simulator::start_with(SimConfig::default().activity_duration(Duration::from_millis(100)))
        .await
        .expect("the simulator starts")
}

fn client(sim: &Simulator) -> Client {
    let (_, table) = Catalog::get().unwrap().api("network").unwrap();
    let (id, secret) = sim.credentials();
    let config = Config::new(Credentials::new(id, secret)).base_url(sim.base_url());
    Client::new(config, described::auth_settings(table)).expect("a client")
}

fn options() -> Options<'static> {
    Options {
        wait: WaitOptions::default().initial_interval(Duration::from_millis(50)),
        settle: Duration::from_millis(50),
        ..Options::default()
    }
}

fn venues(sim: &Simulator) -> Vec<serde_json::Value> {
    sim.objects(&sim.tenant_id(), "/venues")
}

fn names(sim: &Simulator) -> Vec<String> {
    let mut n: Vec<String> = venues(sim)
        .iter()
        .filter_map(|v| v["name"].as_str().map(str::to_owned))
        .collect();
    n.sort();
    n
}

fn csv(rows: usize) -> Input {
    let mut text = String::from("name,address.city,address.country\n");
    for i in 0..rows {
        text.push_str(&format!("Site {i:03},Paris,France\n"));
    }
    Input::parse(text.as_bytes(), Format::Csv).unwrap()
}

#[tokio::test]
async fn venues_are_created_from_csv_and_json_lines() {
    let sim = sim().await;
    let client = client(&sim);
    let op = Operation::find("network", "create_venue").unwrap();
    let batch = Batch::new(op, Arguments::default(), &csv(12)).unwrap();
    let mut journal = Journal::none();
    let summary = batch
        .run(&client, &mut journal, &options(), &|_| {})
        .await
        .unwrap();
    assert_eq!(summary.done, 12);
    let batch = Batch::new(op, Arguments::default(), &csv(12)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut journal = Journal::create(&dir.path().join("j"), batch.key()).unwrap();
    let summary = batch
        .run(&client, &mut journal, &options(), &|_| {})
        .await
        .unwrap();
    assert_eq!((summary.done, summary.failed), (12, 0), "{summary:?}");
    assert_eq!(names(&sim).len(), 24);
    let paris = venues(&sim)
        .iter()
        .filter(|v| v["address"]["city"] == "Paris")
        .count();
    assert_eq!(paris, 24, "address.city is a nested body field");
    let journal = Journal::resume(&dir.path().join("j"), batch.key()).unwrap();
    assert!(batch.rows().iter().all(|r| journal.is_done(r.line)));

    let lines = b"{\"name\": \"J1\", \"address\": {\"city\": \"Oslo\", \"country\": \"Norway\"}}\n\n{\"name\": \"J2\"}\n";
    let input = Input::parse(lines, Format::JsonLines).unwrap();
    let template = Arguments {
        body: Some(serde_json::json!({
            "description": "from the template",
            "address": {"city": "Bergen", "country": "Norway"}
        })),
        ..Arguments::default()
    };
    let batch = Batch::new(op, template, &input).unwrap();
    assert_eq!(batch.rows()[1].line, 3);
    let summary = batch
        .run(&client, &mut Journal::none(), &options(), &|_| {})
        .await
        .unwrap();
    assert_eq!(summary.done, 2);
    let j2 = venues(&sim)
        .into_iter()
        .find(|v| v["name"] == "J2")
        .unwrap();
    assert_eq!(j2["description"], "from the template", "fields are merged");
    let j1 = venues(&sim)
        .into_iter()
        .find(|v| v["name"] == "J1")
        .unwrap();
    assert_eq!(
        j1["address"]["city"], "Oslo",
        "a row's field replaces the template's"
    );
}

#[tokio::test]
async fn a_bad_row_is_named_by_its_line_and_nothing_is_sent() {
    let sim = sim().await;
    let op = Operation::find("network", "create_venue").unwrap();
    let text =
        "name,address.city,address.country,address.latitude\nAa,X,Y,1.5\nBb,X,Y,north\nCc,X,Y,2\n";
    let input = Input::parse(text.as_bytes(), Format::Csv).unwrap();
    let Err(Error::Invalid(problems)) = Batch::new(op, Arguments::default(), &input) else {
        panic!("the row with a latitude that is not a number is refused");
    };
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].line, 3);
    assert!(problems[0].message.contains("north"), "{}", problems[0]);
    assert!(sim.requests().is_empty(), "nothing was sent");
}

#[tokio::test]
async fn a_column_fills_a_path_argument() {
    let sim = sim().await;
    let client = client(&sim);
    let create = Operation::find("network", "create_venue").unwrap();
    Batch::new(create, Arguments::default(), &csv(3))
        .unwrap()
        .run(&client, &mut Journal::none(), &options(), &|_| {})
        .await
        .unwrap();
    let mut text = String::from("id\n");
    for v in venues(&sim).iter().take(2) {
        text.push_str(&format!("{}\n", v["id"].as_str().unwrap()));
    }
    let input = Input::parse(text.as_bytes(), Format::Csv).unwrap();
    let delete = Operation::find("network", "delete_venue").unwrap();
    let template = Arguments {
        path: vec!["{id}".into()],
        ..Arguments::default()
    };
    let batch = Batch::new(delete, template, &input).unwrap();
    let preview = batch.previews(&client).unwrap();
    assert!(
        preview[0]
            .1
            .url
            .ends_with(&format!("/venues/{}", text.lines().nth(1).unwrap()))
    );
    let summary = batch
        .run(&client, &mut Journal::none(), &options(), &|_| {})
        .await
        .unwrap();
    assert_eq!(summary.done, 2, "{summary:?}");
    assert_eq!(names(&sim).len(), 1);
}

#[tokio::test]
async fn a_resume_finds_the_creates_a_killed_run_sent() {
    let sim = sim().await;
    let client = client(&sim);
    let op = Operation::find("network", "create_venue").unwrap();
    let input = csv(6);
    let batch = Batch::new(op, Arguments::default(), &input).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal");
    // A killed run: rows 2 and 3 done, row 4 sent (the venue is there) but not recorded
    // done, row 5 started and never sent.
    let mut journal = Journal::create(&path, batch.key()).unwrap();
    let rows = batch.rows();
    let first = Batch::new(
        op,
        Arguments::default(),
        &Input::parse(b"name,address.city,address.country\nSite 000,Paris,France\nSite 001,Paris,France\nSite 002,Paris,France\n", Format::Csv).unwrap(),
    )
    .unwrap();
    first
        .run(&client, &mut Journal::none(), &options(), &|_| {})
        .await
        .unwrap();
    for r in &rows[..2] {
        journal
            .record(Entry {
                id: Some("known".into()),
                ..Entry::new(step(r.line), StepState::Done)
            })
            .unwrap();
    }
    journal
        .record(Entry::new(step(rows[2].line), StepState::Started))
        .unwrap();
    journal
        .record(Entry::new(step(rows[3].line), StepState::Started))
        .unwrap();
    // Row 6 was sent, but its object appears only later (the service makes it when the
    // write's activity ends, and the killed run had not recorded the request id).
    journal
        .record(Entry::new(step(rows[4].line), StepState::Started))
        .unwrap();
    drop(journal);
    let late = async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let venue = serde_json::json!({"id": "late-1", "name": "Site 004",
            "address": {"city": "Paris", "country": "France"}});
        sim.insert(&sim.tenant_id(), "/venues", venue).unwrap();
    };
    let mut journal = Journal::resume(&path, batch.key()).unwrap();
    let options = Options {
        settle: Duration::from_secs(1),
        ..options()
    };
    let (summary, ()) = tokio::join!(batch.run(&client, &mut journal, &options, &|_| {}), late);
    let summary = summary.unwrap();
    let counts = (
        summary.skipped,
        summary.existing,
        summary.done,
        summary.failed,
    );
    assert_eq!(counts, (2, 2, 4, 0), "{summary:?}");
    assert_eq!(summary.rows[2].outcome, Outcome::Existing);
    assert_eq!(
        summary.rows[3].outcome,
        Outcome::Done,
        "started, never sent"
    );
    assert_eq!(
        summary.rows[4].outcome,
        Outcome::Existing,
        "found on the second look"
    );
    assert_eq!(summary.rows[4].id.as_deref(), Some("late-1"));
    let want: Vec<String> = (0..6).map(|i| format!("Site {i:03}")).collect();
    assert_eq!(names(&sim), want, "no duplicate, none missing");
    let again = Journal::resume(&path, batch.key()).unwrap();
    assert!(rows.iter().all(|r| again.is_done(r.line)));
}

#[tokio::test]
async fn a_resume_never_sends_twice_what_no_identity_finds() {
    let sim = sim().await;
    let client = client(&sim);
    let op = Operation::find("network", "create_venue").unwrap();
    // No resource layer: the create has no identity to look its object up by.
    let no_identities = ruckus_one_catalog::Resources {
        generated: String::new(),
        kinds: Vec::new(),
    };
    let options = Options {
        resources: Some(&no_identities),
        ..options()
    };
    let batch = Batch::new(op, Arguments::default(), &csv(3)).unwrap();
    let rows = batch.rows();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal");
    // A killed run: row 1 started (maybe sent), row 2 accepted (its activity known).
    let args = Arguments {
        body: Some(
            serde_json::json!({"name": "Site 001", "address": {"city": "Paris", "country": "France"}}),
        ),
        ..Arguments::default()
    };
    let request = described::request(&client, op.table, op.route, &args).unwrap();
    let accepted = request
        .send_accepted::<serde_json::Value, serde_json::Value>(op.activity.unwrap())
        .await
        .unwrap();
    let request_id = accepted.request_id().unwrap().to_owned();
    let mut journal = Journal::create(&path, batch.key()).unwrap();
    journal
        .record(Entry::new(step(rows[0].line), StepState::Started))
        .unwrap();
    journal
        .record(Entry {
            request_id: Some(request_id),
            ..Entry::new(step(rows[1].line), StepState::Accepted)
        })
        .unwrap();
    drop(journal);
    let mut journal = Journal::resume(&path, batch.key()).unwrap();
    let summary = batch
        .run(&client, &mut journal, &options, &|_| {})
        .await
        .unwrap();
    assert_eq!(summary.rows[0].outcome, Outcome::Unsure, "{summary:?}");
    assert_eq!(summary.rows[1].outcome, Outcome::Done, "waited, not resent");
    assert_eq!(summary.rows[2].outcome, Outcome::Done);
    assert!(!summary.succeeded());
    assert_eq!(names(&sim), ["Site 001", "Site 002"], "nothing sent twice");
    // Checked by the user: resent when asked for, and only that row.
    drop(journal);
    let mut journal = Journal::resume(&path, batch.key()).unwrap();
    let resend = Options {
        resend_unsure: true,
        ..options
    };
    let summary = batch
        .run(&client, &mut journal, &resend, &|_| {})
        .await
        .unwrap();
    assert_eq!(summary.rows[0].outcome, Outcome::Done, "{summary:?}");
    assert_eq!(summary.skipped, 2);
    assert_eq!(names(&sim), ["Site 000", "Site 001", "Site 002"]);
}
