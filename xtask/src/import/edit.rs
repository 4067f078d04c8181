//! Writing drafts into area files as text, in the files' own layout, so the YAML stays the
//! reviewed source and a re-import diff shows only what changed: new types go before
//! `operations:`, new fields at the end of a type's field list, and an operation's raw
//! `not_shown` body type becomes the type's name.

use super::convert::{Draft, DraftField, Kind};
use super::naming;
use serde_yaml::Value;

/// What to change in one area file.
#[derive(Default)]
pub struct AreaEdits {
    /// Operations whose versions get their own operation, done first.
    pub splits: Vec<Split>,
    pub new_types: Vec<Draft>,
    /// Types cut from this file (they move to `common`).
    pub moves_out: Vec<String>,
    pub additions: Vec<(String, Vec<DraftField>)>,
    pub ops: Vec<OpEdit>,
}

/// A copy of operation `id` named `new_id` that takes over the `media_types` entries listed
/// (by index) from it.
pub struct Split {
    pub id: String,
    pub new_id: String,
    /// The first media type of the moved entries, for the copy's name.
    pub label: String,
    pub entries: Vec<usize>,
}

pub struct OpEdit {
    pub id: String,
    pub request: Option<String>,
    /// The 2xx statuses whose body gets a type, and the type.
    pub response: Option<(Vec<u16>, String)>,
}

/// A YAML scalar, quoted only when it has to be.
fn scalar(v: &Value) -> String {
    serde_yaml::to_string(v)
        .map(|s| s.trim_end().to_owned())
        .unwrap_or_else(|_| "''".into())
}

fn string(s: &str) -> String {
    scalar(&Value::String(s.to_owned()))
}

/// One type as the area files write it (two-space list under `types:`).
pub fn render_type(d: &Draft) -> String {
    let human = naming::human(&d.name);
    let description = match &d.kind {
        Kind::Object(_) => format!("{human}, with the fields the official description lists."),
        Kind::Enum(_) => format!("{human}: the values the official description lists."),
        Kind::Union {
            discriminator: Some(field),
            ..
        } => format!(
            "{human}: one of several kinds, told apart by the `{field}` field (its values as the \
             description's discriminator maps them; without a mapping, the variant schemas' names)."
        ),
        Kind::Union { .. } => format!("{human}: one of several shapes."),
    };
    let mut out = format!(
        "  - name: {}\n    description: {}\n    provenance: {}\n",
        d.name,
        string(&description),
        string(&format!("reference: {}", d.source))
    );
    match &d.kind {
        Kind::Object(fields) => {
            out.push_str("    open: true\n    fields:\n");
            for f in fields {
                out.push_str(&render_field(f, 6));
            }
        }
        Kind::Enum(values) => {
            out.push_str("    values:\n");
            for v in values {
                out.push_str(&format!("      - {}\n", string(v)));
            }
        }
        Kind::Union {
            discriminator,
            variants,
        } => {
            out.push_str("    union:\n");
            if let Some(d) = discriminator {
                out.push_str(&format!("      discriminator: {}\n", string(d)));
            }
            out.push_str("      variants:\n");
            for v in variants {
                out.push_str(&format!("        - type: {}\n", v.ty));
                if let Some(value) = &v.value {
                    out.push_str(&format!("          value: {}\n", string(value)));
                }
                if let Some(name) = &v.name {
                    out.push_str(&format!("          name: {name}\n"));
                }
            }
        }
    }
    out
}

/// One field as a list item indented by `indent`.
pub fn render_field(f: &DraftField, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut out = format!(
        "{pad}- name: {}\n{pad}  type: {}\n",
        string(&f.name),
        string(&f.ty)
    );
    if f.required {
        out.push_str(&format!("{pad}  required: true\n"));
    }
    if f.nullable {
        out.push_str(&format!("{pad}  nullable: true\n"));
    }
    if f.secret {
        out.push_str(&format!("{pad}  secret: true\n"));
    }
    if !f.constraints.is_empty() {
        out.push_str(&format!("{pad}  constraints:\n"));
        for (k, v) in &f.constraints {
            out.push_str(&format!("{pad}    {k}: {}\n", scalar(v)));
        }
    }
    if f.deprecated {
        out.push_str(&format!(
            "{pad}  deprecated: The official description marks this field deprecated.\n"
        ));
    }
    out
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// The block `[start, end)` of the first line in `[from, to)` reading `text` (at any indent),
/// with that indent: the block runs until the next non-blank line indented no deeper.
fn block(lines: &[String], text: &str, from: usize, to: usize) -> Option<(usize, usize, usize)> {
    let start = (from..to).find(|&i| lines[i].trim() == text)?;
    let indent = indent_of(&lines[start]);
    // A key's list may sit at the key's own indent (`responses:` then `- status: 200`).
    let key = !text.starts_with("- ");
    let end = (start + 1..to)
        .find(|&i| {
            let l = &lines[i];
            let at = indent_of(l);
            !l.trim().is_empty()
                && (at < indent || (at == indent && !(key && l.trim_start().starts_with("- "))))
        })
        .unwrap_or(to);
    Some((start, end, indent))
}

/// The `type:` line that is a direct key of the mapping whose keys sit at `indent`.
fn type_line(lines: &[String], from: usize, to: usize, indent: usize) -> Option<usize> {
    (from..to)
        .find(|&i| indent_of(&lines[i]) == indent && lines[i].trim_start().starts_with("type:"))
}

/// Replaces the `type:` line at `at` (and an inline shape below it) with `type: <ty>`.
fn set_type(lines: &mut Vec<String>, at: usize, ty: &str) {
    let indent = indent_of(&lines[at]);
    let mut end = at + 1;
    while end < lines.len() && !lines[end].trim().is_empty() && indent_of(&lines[end]) > indent {
        end += 1;
    }
    lines.splice(
        at..end,
        [format!("{}type: {}", " ".repeat(indent), string(ty))],
    );
}

/// Whether the `type:` line at `at` (with what follows) is a raw `not_shown` shape.
fn is_not_shown(lines: &[String], at: usize) -> bool {
    let rest = lines[at].trim_start().trim_start_matches("type:").trim();
    let indent = indent_of(&lines[at]);
    // An inline shape below the line: raw when it is (a list of) `not_shown`.
    let keys: Vec<&str> = lines[at + 1..]
        .iter()
        .take_while(|l| !l.trim().is_empty() && indent_of(l) > indent)
        .map(|l| l.trim_start().split(':').next().unwrap_or(""))
        .collect();
    matches!(rest, "not_shown" | "json" | "array<json>")
        || rest.starts_with("{not_shown")
        || rest.starts_with("{array: {not_shown")
        || super::GENERIC_RESPONSES.contains(&rest)
        || (rest.is_empty()
            && matches!(keys.first(), Some(&"array" | &"not_shown"))
            && !keys
                .iter()
                .any(|k| matches!(*k, "fields" | "values" | "name" | "map" | "type")))
}

/// Lines indented by `indent` instead of the two spaces they were rendered with.
fn reindent(rendered: &str, indent: usize) -> Vec<String> {
    rendered
        .lines()
        .map(|l| {
            let body = l.strip_prefix("  ").unwrap_or(l);
            if l.trim().is_empty() {
                String::new()
            } else {
                format!("{}{body}", " ".repeat(indent))
            }
        })
        .collect()
}

/// The list items `[start, end)` of the block `[from, to)` (trailing blank lines left out).
fn list_items(lines: &[String], from: usize, to: usize) -> Vec<(usize, usize)> {
    let Some(first) = (from..to).find(|&i| lines[i].trim_start().starts_with("- ")) else {
        return Vec::new();
    };
    let indent = indent_of(&lines[first]);
    let starts: Vec<usize> = (first..to)
        .filter(|&i| indent_of(&lines[i]) == indent && lines[i].trim_start().starts_with("- "))
        .collect();
    starts
        .iter()
        .enumerate()
        .map(|(n, &s)| {
            let mut e = starts.get(n + 1).copied().unwrap_or(to);
            while e > s + 1 && lines[e - 1].trim().is_empty() {
                e -= 1;
            }
            (s, e)
        })
        .collect()
}

fn split_op(lines: &mut Vec<String>, split: &Split) -> Result<(), String> {
    let id = &split.id;
    let (start, mut end, indent) = block(lines, &format!("- id: {id}"), 0, lines.len())
        .ok_or_else(|| format!("operation `{id}` not found"))?;
    while end > start + 1 && lines[end - 1].trim().is_empty() {
        end -= 1;
    }
    let (ms, me, _) = block(lines, "media_types:", start, end)
        .filter(|b| b.2 == indent + 2)
        .ok_or_else(|| format!("`{id}`: no media_types"))?;
    let items = list_items(lines, ms + 1, me);
    if split.entries.iter().any(|&i| i >= items.len()) || split.entries.len() >= items.len() {
        return Err(format!("`{id}`: media_types entries out of range"));
    }
    let keep = |moved: bool| -> Vec<String> {
        let mut out = Vec::new();
        let mut at = start;
        for (n, &(s, e)) in items.iter().enumerate() {
            out.extend(lines[at..s].iter().cloned());
            if split.entries.contains(&n) == moved {
                out.extend(lines[s..e].iter().cloned());
            }
            at = e;
        }
        out.extend(lines[at..end].iter().cloned());
        out
    };
    let mut copy = keep(true);
    let original = keep(false);
    copy[0] = copy[0].replacen(
        &format!("- id: {id}"),
        &format!("- id: {}", split.new_id),
        1,
    );
    let name_key = format!("{}name: ", " ".repeat(indent + 2));
    if let Some(line) = copy.iter_mut().find(|l| l.starts_with(&name_key)) {
        let value = &line[name_key.len()..];
        if !value.starts_with(['\'', '"']) {
            *line = format!("{line} ({})", split.label);
        }
    }
    let mut replacement = original;
    replacement.push(String::new());
    replacement.extend(copy);
    lines.splice(start..end, replacement);
    Ok(())
}

/// Cuts the type `name` out of the types section; its lines come back indented as if the list
/// items sat at two spaces.
fn cut(lines: &mut Vec<String>, name: &str) -> Result<String, String> {
    let types_end = lines
        .iter()
        .position(|l| l.trim_end() == "operations:")
        .unwrap_or(lines.len());
    let (start, mut end, indent) = block(lines, &format!("- name: {name}"), 0, types_end)
        .ok_or_else(|| format!("type `{name}` not found"))?;
    while end > start + 1 && lines[end - 1].trim().is_empty() {
        end -= 1;
    }
    let block: Vec<String> = lines.drain(start..end).collect();
    // Drop the blank line the cut leaves behind.
    if start < lines.len()
        && start > 0
        && lines[start].trim().is_empty()
        && lines[start - 1].trim().is_empty()
    {
        lines.remove(start);
    }
    let mut out = String::new();
    for l in block {
        if l.trim().is_empty() {
            out.push('\n');
        } else {
            out.push_str(&format!("  {}\n", &l[indent.min(indent_of(&l))..]));
        }
    }
    Ok(out)
}

/// Adds type blocks (rendered at two spaces) at the end of the types section.
pub fn insert_types(text: &str, blocks: &[String]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    add_types(&mut lines, blocks);
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

fn add_types(lines: &mut Vec<String>, blocks: &[String]) {
    if blocks.is_empty() {
        return;
    }
    if let Some(i) = lines.iter().position(|l| l.trim_end() == "types: []") {
        lines[i] = "types:".into();
    }
    let types_line = lines.iter().position(|l| l.trim_end() == "types:");
    let ops_line = lines
        .iter()
        .position(|l| l.trim_end() == "operations:")
        .unwrap_or(lines.len());
    // The indent of the existing type items, else two spaces.
    let indent = types_line
        .and_then(|t| (t + 1..ops_line).find(|&i| lines[i].trim_start().starts_with("- name:")))
        .map(|i| indent_of(&lines[i]))
        .unwrap_or(2);
    let mut at = ops_line;
    while at > 0 && lines[at - 1].trim().is_empty() {
        at -= 1;
    }
    let mut insert: Vec<String> = vec![String::new()];
    if types_line.is_none() {
        insert.push("types:".into());
    }
    for (i, b) in blocks.iter().enumerate() {
        if i > 0 {
            insert.push(String::new());
        }
        insert.extend(reindent(b, indent));
    }
    if at < lines.len() {
        insert.push(String::new());
        while at < lines.len() && lines[at].trim().is_empty() {
            lines.remove(at);
        }
    }
    lines.splice(at..at, insert);
}

/// Applies `edits` to an area file's text (its lists indented or not); returns the new text
/// and the type blocks cut out of it.
pub fn apply(text: &str, edits: &AreaEdits) -> Result<(String, Vec<String>), String> {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let op_block = |lines: &[String], id: &str| {
        block(lines, &format!("- id: {id}"), 0, lines.len())
            .ok_or_else(|| format!("operation `{id}` not found"))
    };
    for split in &edits.splits {
        split_op(&mut lines, split)?;
    }
    for op in &edits.ops {
        if let Some(ty) = &op.request {
            let (start, end, indent) = op_block(&lines, &op.id)?;
            let (rs, re, ri) = block(&lines, "request:", start, end)
                .filter(|b| b.2 == indent + 2)
                .ok_or_else(|| format!("`{}`: no request block", op.id))?;
            let at = type_line(&lines, rs + 1, re, ri + 2)
                .filter(|&i| is_not_shown(&lines, i))
                .ok_or_else(|| format!("`{}`: request type is not a not_shown shape", op.id))?;
            set_type(&mut lines, at, ty);
        }
        for (status, ty) in op
            .response
            .iter()
            .flat_map(|(statuses, ty)| statuses.iter().map(move |s| (s, ty)))
        {
            let (start, end, indent) = op_block(&lines, &op.id)?;
            let (rs, re, _) = block(&lines, "responses:", start, end)
                .filter(|b| b.2 == indent + 2)
                .ok_or_else(|| format!("`{}`: no responses block", op.id))?;
            let (es, ee, ei) = block(&lines, &format!("- status: {status}"), rs + 1, re)
                .ok_or_else(|| format!("`{}`: no {status} response", op.id))?;
            let at = type_line(&lines, es + 1, ee, ei + 2)
                .filter(|&i| is_not_shown(&lines, i))
                .ok_or_else(|| format!("`{}`: {status} type is not a not_shown shape", op.id))?;
            set_type(&mut lines, at, ty);
        }
    }
    for (ty, fields) in &edits.additions {
        let types_end = lines
            .iter()
            .position(|l| l.trim_end() == "operations:")
            .unwrap_or(lines.len());
        let (ts, te, _) = block(&lines, &format!("- name: {ty}"), 0, types_end)
            .ok_or_else(|| format!("type `{ty}` not found"))?;
        let (fs, fe, _) = block(&lines, "fields:", ts, te)
            .ok_or_else(|| format!("type `{ty}` has no fields list"))?;
        let item_indent = (fs + 1..fe)
            .find(|&i| lines[i].trim_start().starts_with("- "))
            .map(|i| indent_of(&lines[i]))
            .unwrap_or(6);
        let mut at = fe;
        while at > fs + 1 && lines[at - 1].trim().is_empty() {
            at -= 1;
        }
        let rendered: String = fields
            .iter()
            .map(|f| render_field(f, item_indent))
            .collect();
        lines.splice(at..at, rendered.lines().map(str::to_owned));
    }
    let mut cut_blocks = Vec::new();
    for name in &edits.moves_out {
        cut_blocks.push(cut(&mut lines, name)?);
    }
    let rendered: Vec<String> = edits.new_types.iter().map(render_type).collect();
    add_types(&mut lines, &rendered);
    let mut out = lines.join("\n");
    out.push('\n');
    Ok((out, cut_blocks))
}

#[cfg(test)]
mod tests {
    use super::*;

    const AREA: &str = "area: a\ntitle: A\n\ntypes:\n  - name: Known\n    description: K.\n    fields:\n      - name: id\n        type: string\n\noperations:\n  - id: get_x\n    name: Get X\n    method: GET\n    path: /x\n    request:\n      type:\n        not_shown: The request body is not shown by the document.\n      required: true\n    responses:\n      - status: 200\n        type: {not_shown: The response body is not shown by the document.}\n        provenance: 'reference: f.yaml getX'\n";

    #[test]
    fn edits_keep_the_layout() {
        let edits = AreaEdits {
            splits: Vec::new(),
            moves_out: Vec::new(),
            new_types: vec![Draft {
                name: "Thing".into(),
                source: "f.yaml Thing".into(),
                kind: Kind::Enum(vec!["on".into(), "yes".into()]),
            }],
            additions: vec![(
                "Known".into(),
                vec![DraftField {
                    name: "name".into(),
                    ty: "string".into(),
                    required: false,
                    nullable: true,
                    constraints: vec![("max_length".into(), Value::from(32))],
                    deprecated: false,
                    secret: false,
                }],
            )],
            ops: vec![OpEdit {
                id: "get_x".into(),
                request: Some("Thing".into()),
                response: Some((vec![200], "array<Known>".into())),
            }],
        };
        let (out, cut) = apply(AREA, &edits).unwrap();
        assert!(cut.is_empty());
        assert!(
            out.contains("    request:\n      type: Thing\n      required: true\n"),
            "{out}"
        );
        assert!(
            out.contains("      - status: 200\n        type: array<Known>\n        provenance"),
            "{out}"
        );
        assert!(out.contains("        type: string\n      - name: name\n        type: string\n        nullable: true\n        constraints:\n          max_length: 32\n\n  - name: Thing\n"), "{out}");
        assert!(
            out.contains("    values:\n      - on\n      - yes\n\noperations:"),
            "{out}"
        );
        let missing = AreaEdits {
            ops: vec![OpEdit {
                id: "nope".into(),
                request: Some("Thing".into()),
                response: None,
            }],
            ..AreaEdits::default()
        };
        assert!(apply(AREA, &missing).is_err());
    }
}
