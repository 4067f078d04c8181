//! The import's report: per area, the places typed, the types imported and the operations
//! drafted, and what the descriptions could not give.

use super::plan;

/// The report for one API (empty when the import found nothing there).
pub fn report_of(api: &str, f: &plan::Findings) -> String {
    if f.typed.is_empty() && f.unresolved.is_empty() && f.exceptions.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "## {api}\n\n| area | places typed | imported types | drafted operations |\n|---|---:|---:|---:|\n"
    );
    let areas: std::collections::BTreeSet<&String> = f
        .typed
        .keys()
        .chain(f.types.keys())
        .chain(f.drafted.keys())
        .collect();
    for area in areas {
        out.push_str(&format!(
            "| {area} | {} | {} | {} |\n",
            f.typed.get(area).unwrap_or(&0),
            f.types.get(area).unwrap_or(&0),
            f.drafted.get(area).unwrap_or(&0)
        ));
    }
    for (title, list) in [
        ("places the descriptions cannot type", &f.unresolved),
        (
            "fields added to curated types (from the descriptions and payloads)",
            &f.curated_gaps,
        ),
        ("routes not drafted", &f.exceptions),
    ] {
        if !list.is_empty() {
            out.push_str(&format!("\n{title} ({}):\n", list.len()));
            for item in list {
                out.push_str(&format!("- {item}\n"));
            }
        }
    }
    if f.payload_fields > 0 {
        out.push_str(&format!(
            "\nfields added because the vendor's payloads send them: {}\n",
            f.payload_fields
        ));
    }
    out.push('\n');
    out
}
