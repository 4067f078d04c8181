//! Every operation's canned answer validates against its response schema.

use ruckus_one_sim::conform::Samples;
use ruckus_one_sim::model::Model;

#[test]
fn every_canned_answer_validates() {
    let model = Model::get().expect("tables load");
    let mut failures = Vec::new();
    let mut total = 0;
    for table in &model.apis {
        let samples = Samples::answer(table, "2026-01-01T00:00:00Z");
        for r in &table.routes {
            if r.response.schema.is_null() {
                continue;
            }
            total += 1;
            let v = samples.conform(None, &r.response.schema);
            if let Err(e) = table.validate(&v, &r.response.schema) {
                failures.push(format!("{} {}: {e}", table.api.name, r.id));
            }
        }
        for f in &table.api.families {
            let v = samples.conform(None, &f.schema);
            if let Err(e) = table.validate(&v, &f.schema) {
                failures.push(format!("{} family {}: {e}", table.api.name, f.name));
            }
        }
    }
    assert!(total > 900, "{total}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
