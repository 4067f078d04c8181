//! The bodies of drafted operations, converted under names the converter picks.

use super::DraftOp;
use crate::import::convert::Converter;
use crate::import::plan::Findings;
use ruckus_codegen::names;
use ruckus_codegen::spec::TypeExpr;
use std::collections::BTreeMap;

/// Converts every drafted body, names shared shapes, and writes the (renamed) type
/// expressions into the operations; returns `(area, type)` of each typed body.
pub fn convert_bodies(
    conv: &mut Converter<'_>,
    drafts: &mut [DraftOp<'_>],
    findings: &mut Findings,
) -> Vec<(String, String)> {
    let mut typed: Vec<(usize, bool, String)> = Vec::new();
    for (k, d) in drafts.iter().enumerate() {
        let operation = d.op.operation_id.as_deref().unwrap_or("-");
        conv.set_context(operation, None, "");
        // The request builder's name, as the generator derives it.
        let builder = names::camel(&d.op.id);
        if let Some(s) = d.request
            && let Some(ty) = conv.body(d.file, s, &format!("{builder}Request"))
        {
            typed.push((k, true, ty));
        }
        if let Some(s) = d.response
            && let Some(ty) = conv.body(d.file, s, &format!("{builder}Response"))
        {
            typed.push((k, false, ty));
        }
    }
    let renames = conv.name_shared();
    let mut reached = Vec::new();
    for (k, request, ty) in typed {
        let ty = rename(&ty, &renames);
        let d = &mut drafts[k];
        *findings.typed.entry(d.area.clone()).or_default() += 1;
        reached.push((d.area.clone(), ty.clone()));
        if request {
            if let Some(b) = d.op.request.as_mut() {
                b.ty = Some(TypeExpr::Name(ty));
            }
        } else {
            for r in d.op.responses.iter_mut().filter(|r| r.ty.is_some()) {
                r.ty = Some(TypeExpr::Name(ty.clone()));
            }
        }
    }
    for d in drafts.iter() {
        *findings.drafted.entry(d.area.clone()).or_default() += 1;
    }
    reached
}

/// A type expression with renamed names (`array<Old>` -> `array<New>`).
fn rename(ty: &str, renames: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    let mut word = String::new();
    for c in ty.chars().chain(std::iter::once('\0')) {
        if c == '<' || c == '>' || c == '\0' {
            out.push_str(renames.get(&word).unwrap_or(&word));
            word.clear();
            if c != '\0' {
                out.push(c);
            }
        } else {
            word.push(c);
        }
    }
    out
}
