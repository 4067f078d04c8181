//! Markdown reference docs: an index, then one page per API area listing each operation
//! (method, path, lifecycle, provenance, media types) and each type's fields.

use super::describe::{self, Style};
use super::text::{PREAMBLE, code, code_cell, prose, type_doc};
use crate::ir::{
    ApiIr, AreaIr, AuthKind, FieldIr, Ir, OpIr, Provenance, ResponseKind, TypeIr, TypeKind,
};
use std::fmt::Write;

/// `(path relative to generated/, text)` for every docs page.
pub fn docs(ir: &Ir) -> Vec<(String, String)> {
    let mut out = vec![("docs/README.md".to_owned(), index(ir))];
    for api in &ir.apis {
        for area in &api.areas {
            out.push((
                format!("docs/{}/{}.md", api.name, area.name),
                area_page(ir, api, area),
            ));
        }
    }
    out
}

fn header() -> String {
    format!("<!-- {PREAMBLE} -->\n")
}

fn prov(p: &Provenance) -> String {
    describe::provenance(p, Style::Markdown)
}

fn index(ir: &Ir) -> String {
    let mut s = header();
    let _ = writeln!(s, "# `{}` reference\n", ir.krate.name);
    let _ = writeln!(s, "{}\n", prose(&ir.krate.description));
    s.push_str("Generated from the YAML spec under `spec/`. Every operation, type and field carries its provenance:\n");
    s.push_str("**documented** (stated by the source document), **inferred** (not shown by the document; the reason is given)\n");
    s.push_str("or **reference** (from public material outside the documents, named).\n\n");
    s.push_str("## Authentication\n\n");
    let _ = writeln!(s, "{}\n", prose(&ir.auth.description));
    s.push_str("| Setting | Value | Provenance |\n|---|---|---|\n");
    for (name, v) in [
        ("Token URL (with tenant)", &ir.auth.token_url),
        (
            "Token URL (without tenant)",
            &ir.auth.token_url_without_tenant,
        ),
        ("Delegated tenant header", &ir.auth.tenant_header),
    ] {
        let _ = writeln!(
            s,
            "| {name} | {} | {} |",
            code_cell(&v.value),
            prov(&v.provenance)
        );
    }
    for api in &ir.apis {
        api_section(&mut s, ir, api);
    }
    s
}

/// One API in the index: its settings, error body families, status codes and areas.
fn api_section(s: &mut String, ir: &Ir, api: &ApiIr) {
    let _ = writeln!(s, "\n## {}\n", prose(&api.title));
    let _ = writeln!(s, "{}\n", prose(&api.description));
    let _ = writeln!(
        s,
        "Rust module `{}::{}`; source document {}.\n",
        ir.krate.name.replace('-', "_"),
        api.name,
        code(&api.source)
    );
    s.push_str("| Setting | Value | Provenance |\n|---|---|---|\n");
    let prefix = if api.prefix.value.is_empty() {
        "(none)".to_owned()
    } else {
        code_cell(&api.prefix.value)
    };
    let _ = writeln!(
        s,
        "| Path prefix | {prefix} | {} |",
        prov(&api.prefix.provenance)
    );
    let hosts = format!(
        "Asia {}, Europe {}, North America {}",
        code_cell(&api.hosts.asia),
        code_cell(&api.hosts.europe),
        code_cell(&api.hosts.north_america)
    );
    let _ = writeln!(s, "| Hosts | {hosts} | {} |", prov(&api.hosts.provenance));
    let auth = match api.auth.value {
        AuthKind::UnitToken => {
            "caller-supplied token (`Config::unit_token`) as `Authorization: Bearer`"
        }
        AuthKind::ClientCredentials => {
            "OAuth 2.0 client credentials token as `Authorization: Bearer`"
        }
    };
    let _ = writeln!(
        s,
        "| Authentication | {auth} | {} |",
        prov(&api.auth.provenance)
    );
    let _ = writeln!(
        s,
        "| Versioned media types | {} | {} |",
        code_cell(&format!(
            "application/vnd.{}.<version>+json",
            api.media_vendor.value
        )),
        prov(&api.media_vendor.provenance)
    );
    families_and_statuses(s, api);
    area_table(s, api);
}

/// The error body families and status codes of an API.
fn families_and_statuses(s: &mut String, api: &ApiIr) {
    s.push_str("\nError body families:\n\n| Family | Decoded as | Body | Description | Provenance |\n|---|---|---|---|---|\n");
    for f in &api.families {
        let body = f.body.as_deref().map_or("-".to_owned(), code_cell);
        let _ = writeln!(
            s,
            "| {} | `{}` | {body} | {} | {} |",
            code_cell(&f.name),
            f.kind.variant(),
            prose(&f.description),
            prov(&f.provenance)
        );
    }
    if !api.status_codes.is_empty() {
        s.push_str("\nStatus codes:\n\n| Status | Meaning | Provenance |\n|---|---|---|\n");
        for (status, meaning, p) in &api.status_codes {
            let _ = writeln!(s, "| {status} | {} | {} |", prose(meaning), prov(p));
        }
    }
}

/// One row per area: operations by lifecycle and types.
fn area_table(s: &mut String, api: &ApiIr) {
    s.push_str("\n| Area | Operations | Stable | Deprecated | Experimental | Removed | Types |\n|---|---|---|---|---|---|---|\n");
    for a in &api.areas {
        let count = |label: &str| {
            a.operations
                .iter()
                .filter(|o| o.lifecycle.label() == label)
                .count()
        };
        let _ = writeln!(
            s,
            "| [{}]({}/{}.md) | {} | {} | {} | {} | {} | {} |",
            prose(&a.title),
            api.name,
            a.name,
            a.operations.len(),
            count("stable"),
            count("deprecated"),
            count("experimental"),
            count("removed"),
            a.types.len()
        );
    }
}

fn area_page(ir: &Ir, api: &ApiIr, area: &AreaIr) -> String {
    let mut s = header();
    let _ = writeln!(s, "# {}: {}\n", prose(&api.title), prose(&area.title));
    if let Some(d) = &area.description {
        let _ = writeln!(s, "{}\n", prose(d));
    }
    let base = if api.prefix.value.is_empty() {
        "the regional host".to_owned()
    } else {
        format!("the regional host + {}", code(&api.prefix.value))
    };
    let _ = writeln!(
        s,
        "Spec {}; Rust module `{}::{}::{}`. Paths are relative to {base}.\n",
        code(&area.spec_file),
        ir.krate.name.replace('-', "_"),
        api.name,
        area.name
    );
    if !area.operations.is_empty() {
        s.push_str("## Operations\n\n| Operation | Method | Path | Lifecycle | Provenance |\n|---|---|---|---|---|\n");
        for o in &area.operations {
            let _ = writeln!(
                s,
                "| [`{}`](#{}) {} | {} | {} | {} | {} |",
                o.id,
                o.id.replace('_', "-"),
                prose(&o.name),
                o.method.as_str(),
                code_cell(&o.path),
                o.lifecycle.label(),
                o.provenance.label()
            );
        }
        for o in &area.operations {
            operation(&mut s, o);
        }
    }
    if !area.types.is_empty() {
        s.push_str("\n## Types\n");
        for t in &area.types {
            type_section(&mut s, t);
        }
    }
    s
}

fn operation(s: &mut String, o: &OpIr) {
    let _ = writeln!(s, "\n### {}\n", o.id.replace('_', "-"));
    let _ = writeln!(
        s,
        "**{}**: {}\n",
        prose(&o.name),
        code(&format!("{} {}", o.method.as_str(), o.path))
    );
    if let Some(d) = &o.description {
        let _ = writeln!(s, "{}\n", prose(d));
    }
    let generated = if !o.is_generated() {
        "not generated".into()
    } else if super::builder::own_builder(o) {
        format!("method `{}`, builder `{}`", o.id, o.builder)
    } else {
        format!("method `{}`, returns a `Call`", o.id)
    };
    let _ = writeln!(s, "- Rust: {generated}");
    let _ = writeln!(s, "- Lifecycle: {}", prose(&o.lifecycle.describe()));
    let _ = writeln!(s, "- Provenance: {}", prov(&o.provenance));
    let _ = writeln!(s, "- Error family: {}", code(&o.error_family));
    if o.asynchronous {
        s.push_str(
            "- Asynchronous: answers 202 Accepted; the body carries the `requestId` of the work\n",
        );
    }
    if let Some(p) = &o.pagination {
        let _ = writeln!(
            s,
            "- Pagination: `{}`, items in {} ({})",
            p.style.as_str(),
            code(&p.items),
            prov(&p.provenance)
        );
    }
    parameter_table(s, o);
    bodies_and_responses(s, o);
    versions_and_notes(s, o);
}

/// The path, query and header parameters of an operation.
fn parameter_table(s: &mut String, o: &OpIr) {
    let params: Vec<_> = o
        .path_params
        .iter()
        .chain(&o.query)
        .chain(&o.headers)
        .map(|p| (p.location.as_str(), p))
        .collect();
    if !params.is_empty() {
        s.push_str("\n| Parameter | In | Type | Required | Description |\n|---|---|---|---|---|\n");
        for (loc, p) in params {
            let mut desc = p.description.as_deref().map(prose).unwrap_or_default();
            for (k, v) in &p.constraints {
                let _ = write!(desc, " {k}: {}.", prose(v));
            }
            if !matches!(p.provenance, Provenance::Documented) {
                let _ = write!(desc, " Provenance: {}.", prov(&p.provenance));
            }
            let _ = writeln!(
                s,
                "| {} | {loc} | {} | {} | {} |",
                code_cell(&p.wire),
                type_doc(&p.ty),
                yes(p.required),
                desc.trim()
            );
        }
    }
}

/// The request body and the responses of an operation.
fn bodies_and_responses(s: &mut String, o: &OpIr) {
    if let Some(b) = &o.request {
        let what = describe::request_body(b, Style::Markdown);
        let _ = writeln!(
            s,
            "\nRequest body ({}, {}): {what}",
            b.kind.as_str(),
            if b.required { "required" } else { "optional" }
        );
        if !matches!(b.provenance, Provenance::Documented) {
            let _ = writeln!(s, "\nRequest body provenance: {}", prov(&b.provenance));
        }
    }
    s.push_str("\n| Status | Media type | Body | Provenance |\n|---|---|---|---|\n");
    for r in &o.responses {
        let body = describe::response_body(r, Style::Markdown);
        let mt = if r.kind == ResponseKind::Empty {
            "-".to_owned()
        } else {
            code_cell(&r.media_type)
        };
        let _ = writeln!(
            s,
            "| {} | {mt} | {body} | {} |",
            r.status,
            prov(&r.provenance)
        );
    }
}

/// The versions (media types) and notes of an operation.
fn versions_and_notes(s: &mut String, o: &OpIr) {
    s.push_str("\n| Version | Content-Type | Accept |\n|---|---|---|\n");
    for (i, v) in o.versions.iter().enumerate() {
        let def = if i == 0 && o.versions.len() > 1 {
            " (default)"
        } else {
            ""
        };
        let ct = v.content_type.as_deref().map_or("-".to_owned(), code_cell);
        let _ = writeln!(
            s,
            "| {}{def} | {ct} | {} |",
            prose(&v.label),
            code_cell(&v.accept)
        );
    }
    if !matches!(o.versions_provenance, Provenance::Documented) {
        let _ = writeln!(
            s,
            "\nMedia types provenance: {}",
            prov(&o.versions_provenance)
        );
    }
    if !o.notes.is_empty() {
        s.push_str("\nNotes:\n");
        for n in &o.notes {
            let _ = writeln!(s, "- {}", prose(n));
        }
    }
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

fn type_section(s: &mut String, t: &TypeIr) {
    let _ = writeln!(s, "\n### `{}`\n", t.name);
    if !t.description.is_empty() {
        let _ = writeln!(s, "{}\n", prose(&t.description));
    }
    if let Some(origin) = &t.origin {
        let _ = writeln!(
            s,
            "Shown inline by the document; named {} by the generator.\n",
            code(origin)
        );
    }
    let _ = writeln!(s, "Provenance: {}\n", prov(&t.provenance));
    match &t.kind {
        TypeKind::Object(fields, open) => {
            s.push_str("| Field | Rust | Type | Required | Description |\n|---|---|---|---|---|\n");
            for f in fields {
                field_row(s, f);
            }
            if *open {
                s.push_str("| (other fields) | `additional_fields` | map of raw JSON | no | Fields the spec does not name (the document shows only part of the object, or the service added them since) are kept here and sent back as set. |\n");
            }
        }
        TypeKind::Enum(values) => {
            s.push_str("| Value | Rust | Meaning |\n|---|---|---|\n");
            for v in values {
                let mut meaning = v.description.as_deref().map(prose).unwrap_or_default();
                if let Some(d) = &v.deprecated {
                    let _ = write!(meaning, " Deprecated: {}", prose(d));
                }
                let _ = writeln!(
                    s,
                    "| {} | `{}` | {} |",
                    code_cell(&v.wire),
                    v.rust,
                    meaning.trim()
                );
            }
            s.push_str("| (any other) | `Unknown` | kept as received |\n");
        }
        TypeKind::Alias(target) => {
            let _ = writeln!(s, "Same as {}.", type_doc(target));
        }
        TypeKind::Union(u) => {
            match &u.discriminator {
                Some(d) => {
                    let _ = writeln!(
                        s,
                        "One of these types, chosen by the string in the field {}; each carries that field itself.\n",
                        code(d)
                    );
                    s.push_str(
                        "| Value of the field | Rust | Type | Description |\n|---|---|---|---|\n",
                    );
                }
                None => {
                    s.push_str(
                        "One of these types: the first, in this order, that decodes the value.\n\n",
                    );
                    s.push_str("| Order | Rust | Type | Description |\n|---|---|---|---|\n");
                }
            }
            for (i, v) in u.variants.iter().enumerate() {
                let first = match &v.tag {
                    Some(tag) => code_cell(tag),
                    None => (i + 1).to_string(),
                };
                let _ = writeln!(
                    s,
                    "| {first} | `{}` | {} | {} |",
                    v.rust,
                    type_doc(&v.ty),
                    v.description.as_deref().map(prose).unwrap_or_default()
                );
            }
            let other = if u.discriminator.is_some() {
                "(any other)"
            } else {
                "(none decodes)"
            };
            let _ = writeln!(
                s,
                "| {other} | `Unknown` | raw JSON | kept as received and sent back unchanged |"
            );
        }
        TypeKind::NotShown(note) => {
            let _ = writeln!(
                s,
                "Shape not shown by the document ({}): raw JSON.",
                prose(note)
            );
        }
    }
}

fn field_row(s: &mut String, f: &FieldIr) {
    let mut desc = f.description.as_deref().map(prose).unwrap_or_default();
    if f.nullable {
        desc.push_str(" May be null.");
    }
    if f.secret {
        desc.push_str(" Secret (redacted in `Debug`).");
    }
    for (k, v) in &f.constraints {
        let _ = write!(desc, " {k}: {}.", prose(v));
    }
    if let Some(d) = &f.deprecated {
        let _ = write!(desc, " Deprecated: {}.", prose(d));
    }
    if let Some(p) = f.stated_provenance() {
        let _ = write!(desc, " Provenance: {}.", prov(p));
    }
    let _ = writeln!(
        s,
        "| {} | `{}` | {} | {} | {} |",
        code_cell(&f.wire),
        f.rust,
        type_doc(&f.ty),
        yes(f.required),
        desc.trim()
    );
}
