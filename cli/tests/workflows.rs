//! `ruckus aps swap` and `ruckus report`, run as the built binary against the simulator.

mod support;

use calamine::{Reader, Xlsx};
use ruckus_one_sim::config::DEFAULT_TENANT_ID;
use ruckus_one_sim::{SimConfig, Simulator};
use serde_json::{Value, json};
use support::{ruckus, sim_with};

const VENUE: &str = "v-1";
const OLD: &str = "111111111111";
const NEW: &str = "222222222222";

/// A venue with an AP group and the AP `OLD` in it, its LED turned on against the venue's.
fn seed_ap(sim: &Simulator) -> tempfile::TempDir {
    let tenant = sim.tenant_id();
    sim.insert(&tenant, "/venues", json!({"id": VENUE, "name": "Lobby"}))
        .unwrap();
    sim.insert(
        &tenant,
        &format!("/venues/{VENUE}/apGroups"),
        json!({"id": "g-1", "name": "Upstairs"}),
    )
    .unwrap();
    sim.insert(
        &tenant,
        &format!("/venues/{VENUE}/aps"),
        json!({"serialNumber": OLD, "name": "Hall-1", "description": "by the door",
               "tags": ["east"], "apGroupId": "g-1", "venueId": VENUE}),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let led = ruckus(
        Some(sim),
        dir.path(),
        &[
            "ap-settings",
            "ap-led-setting",
            "update",
            "--venue-id",
            VENUE,
            "--serial-number",
            OLD,
            "--json",
            r#"{"ledEnabled": true, "useVenueSettings": false}"#,
        ],
        "",
    );
    assert_eq!(led.code, 0, "{}", led.stderr);
    dir
}

fn get(sim: &Simulator, dir: &std::path::Path, args: &[&str]) -> Option<Value> {
    let run = ruckus(Some(sim), dir, args, "");
    (run.code == 0).then(|| run.json())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swap_gives_the_new_serial_the_old_identity_group_and_led() {
    let sim = sim_with(SimConfig::default()).await;
    let dir = seed_ap(&sim);
    let journal = dir.path().join("swap.journal");
    let journal_arg = journal.to_str().unwrap();
    let args = ["aps", "swap", OLD, NEW, "--yes", "--journal", journal_arg];
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);

    let ap_args = |serial: &'static str| {
        [
            "aps",
            "get",
            "--venue-id",
            VENUE,
            "--serial-number",
            serial,
            "-o",
            "json",
        ]
    };
    let new = get(&sim, dir.path(), &ap_args(NEW)).expect("the new AP is there");
    assert_eq!(new["name"], "Hall-1");
    assert_eq!(new["description"], "by the door");
    assert_eq!(new["tags"], json!(["east"]));
    assert_eq!(new["apGroupId"], "g-1");
    let led = get(
        &sim,
        dir.path(),
        &[
            "ap-settings",
            "ap-led-setting",
            "get",
            "--venue-id",
            VENUE,
            "--serial-number",
            NEW,
            "-o",
            "json",
        ],
    )
    .unwrap();
    assert_eq!(led["ledEnabled"], true, "{led}");
    assert_eq!(led["useVenueSettings"], false);
    assert!(
        get(&sim, dir.path(), &ap_args(OLD)).is_none(),
        "the old AP is removed"
    );

    // The same command again: every step is in the journal, nothing is sent.
    let writes_before = writes(&sim);
    let again = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(again.stderr.contains("already_done"), "{}", again.stderr);
    assert_eq!(writes(&sim), writes_before);
}

/// The writes the simulator answered (queries, which are POSTs, are reads).
fn writes(sim: &Simulator) -> usize {
    sim.requests()
        .iter()
        .filter(|r| r.method != "GET" && !r.path.ends_with("/query") && !r.path.contains("oauth2"))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dry_run_lists_the_steps_and_sends_no_write() {
    let sim = sim_with(SimConfig::default()).await;
    let dir = seed_ap(&sim);
    let before = writes(&sim);
    let args = ["aps", "swap", OLD, NEW, "--dry-run", "-o", "json"];
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let steps = run.json();
    let keys: Vec<&str> = steps
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys.first(), Some(&"add AP 222222222222"));
    assert!(
        keys.contains(&"copy ledSettings to AP 222222222222"),
        "{keys:?}"
    );
    assert_eq!(keys.last(), Some(&"remove AP 111111111111"));
    assert_eq!(writes(&sim), before, "a dry run sends no write");
    assert!(
        get(
            &sim,
            dir.path(),
            &["aps", "get", "--venue-id", VENUE, "--serial-number", OLD]
        )
        .is_some()
    );
}

/// Three customers with 3, 5 and 7 APs.
async fn customers_with_aps() -> (Simulator, Vec<(String, usize)>) {
    let customers = [("c1", 3), ("c2", 5), ("c3", 7)];
    let mut config = SimConfig::default();
    for (c, _) in customers {
        config = config.customer(DEFAULT_TENANT_ID, c);
    }
    let sim = sim_with(config).await;
    for (c, n) in customers {
        let venue = format!("{c}-v");
        sim.insert(
            c,
            "/venues",
            json!({"id": venue, "name": format!("{c} venue")}),
        )
        .unwrap();
        for i in 0..n {
            let ap = json!({"serialNumber": format!("{c}-ap-{i}"), "name": format!("AP {i}"),
                            "venueId": venue, "model": "R750"});
            sim.insert(c, &format!("/venues/{venue}/aps"), ap).unwrap();
        }
    }
    let expected = customers
        .iter()
        .map(|(c, n)| ((*c).to_owned(), *n))
        .collect();
    (sim, expected)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_inventory_across_customers_has_one_row_per_ap_of_each() {
    let (sim, expected) = customers_with_aps().await;
    let dir = tempfile::tempdir().unwrap();
    let args = ["report", "inventory", "--all-customers", "-o", "csv"];
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut reader = csv::Reader::from_reader(run.stdout.as_bytes());
    let headers = reader.headers().unwrap().clone();
    let at = |name: &str| headers.iter().position(|h| h == name);
    let (tenant, serial) = (
        at("tenant").expect("a tenant column"),
        at("serial").unwrap(),
    );
    assert_eq!(tenant, 0, "{headers:?}");
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    for (customer, n) in &expected {
        let mut serials: Vec<&str> = rows
            .iter()
            .filter(|r| &r[tenant] == customer)
            .map(|r| &r[serial])
            .collect();
        serials.sort();
        let want: Vec<String> = (0..*n).map(|i| format!("{customer}-ap-{i}")).collect();
        assert_eq!(serials, want, "{}", run.stdout);
    }
    assert_eq!(rows.len(), 15, "{}", run.stdout);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_inventory_as_xlsx_opens_with_a_reader() {
    let (sim, _) = customers_with_aps().await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("inventory.xlsx");
    let args = [
        "report",
        "inventory",
        "--all-customers",
        "-o",
        "xlsx",
        "--out",
        file.to_str().unwrap(),
    ];
    let run = ruckus(Some(&sim), dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut book: Xlsx<_> = calamine::open_workbook(&file).expect("an XLSX file");
    let sheet = book.worksheet_range("inventory").expect("the sheet");
    let rows: Vec<Vec<String>> = sheet
        .rows()
        .map(|r| r.iter().map(|c| c.to_string()).collect())
        .collect();
    assert_eq!(rows[0][0], "tenant");
    assert!(rows[0].contains(&"serial".to_owned()), "{:?}", rows[0]);
    assert_eq!(rows.len(), 16, "a heading and 15 APs: {rows:?}");
    assert!(
        rows.iter()
            .any(|r| r[0] == "c3" && r.contains(&"c3-ap-6".to_owned()))
    );

    // Standard output that is not a terminal takes the workbook too.
    let piped = ruckus(
        Some(&sim),
        dir.path(),
        &["report", "firmware", "--all-customers", "-o", "xlsx"],
        "",
    );
    assert_eq!(piped.code, 0, "{}", piped.stderr);
    assert!(piped.stdout.len() > 100);
}
