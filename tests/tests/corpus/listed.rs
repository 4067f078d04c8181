//! `spec/payload_artefacts.yaml`: the odd values of the vendor's payloads, each by its file and
//! JSON pointer, and the few whole answers that belong to another operation or have another
//! shape, each with the part of it that is checked and the type it is checked against.

use ruckus_codegen::ir::{ApiIr, TypeKind, TypeRef};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The whole list.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Artefacts {
    /// Single values that do not agree with their type, by file and JSON pointer, with the
    /// reason. The rest of the file is evidence like any other answer.
    #[serde(default)]
    pub fields: Vec<ListedField>,
    /// Answers of another operation or shape than their operation's (a bare row for a page,
    /// the written object for a 202 envelope), each checked as what it is.
    #[serde(default)]
    pub other_shape: Vec<OtherShape>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListedField {
    pub file: String,
    pub at: String,
    pub reason: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OtherShape {
    pub file: String,
    pub reason: String,
    /// What the answer is, checked against that type.
    pub checked_as: CheckedAs,
}

/// The part of an answer of another shape that is checked, and as what.
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct CheckedAs {
    /// The value's JSON pointer in the file (`""`: the whole answer).
    #[serde(default)]
    pub at: String,
    /// The operation whose type it is checked against.
    pub of: String,
    pub part: Part,
}

/// Which type of the operation `of` the value is.
#[derive(Deserialize, Clone, Copy, Debug)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// The operation's success answer.
    Answer,
    /// A list of its success answers.
    Answers,
    /// One row of the paged (or list) answer.
    Row,
    /// A list of rows.
    Rows,
}

impl CheckedAs {
    /// The type the value is checked against, from the spec's model; `None` when the operation
    /// is not in `api` or has no such part.
    pub fn ty(&self, api: &ApiIr) -> Option<TypeRef> {
        let op = api
            .areas
            .iter()
            .flat_map(|a| &a.operations)
            .find(|o| o.id == self.of)?;
        // The rows: the pagination's row type, else the element type of the page's items
        // field, else of a list answer.
        let row = || match (&op.pagination, &op.success.ty) {
            (Some(p), _) if p.item_type.is_some() => p.item_type.clone(),
            (Some(p), Some(TypeRef::Named { name, .. })) => api
                .areas
                .iter()
                .flat_map(|a| &a.types)
                .find(|t| &t.name == name)
                .and_then(|t| match &t.kind {
                    TypeKind::Object(fields, _) => fields.iter().find(|f| f.wire == p.items),
                    _ => None,
                })
                .and_then(|f| match &f.ty {
                    TypeRef::Array(inner) => Some((**inner).clone()),
                    _ => None,
                }),
            (_, Some(TypeRef::Array(inner))) => Some((**inner).clone()),
            _ => None,
        };
        match self.part {
            Part::Answer => op.success.ty.clone(),
            Part::Answers => op.success.ty.clone().map(|t| TypeRef::Array(Box::new(t))),
            Part::Row => row(),
            Part::Rows => row().map(|t| TypeRef::Array(Box::new(t))),
        }
    }
}

pub fn read() -> Artefacts {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/payload_artefacts.yaml");
    let text = std::fs::read_to_string(&path).expect("spec/payload_artefacts.yaml");
    let listed: Artefacts = serde_yaml::from_str(&text).expect("payload_artefacts.yaml parses");
    for f in &listed.fields {
        assert!(
            !f.reason.trim().is_empty(),
            "{} {}: no reason",
            f.file,
            f.at
        );
    }
    for o in &listed.other_shape {
        assert!(!o.reason.trim().is_empty(), "{}: no reason", o.file);
    }
    listed
}

impl Artefacts {
    /// The listed values by `(file, pointer)`.
    pub fn values(&self) -> BTreeMap<(String, String), &str> {
        self.fields
            .iter()
            .map(|l| ((l.file.clone(), l.at.clone()), l.reason.as_str()))
            .collect()
    }

    /// Whether a failure to decode (or to write back) `file` is explained: it is an answer of
    /// another shape, or some value of it is listed (the field gate checks that each listed
    /// value still disagrees with its type).
    pub fn explains(&self, file: &str) -> bool {
        self.fields.iter().any(|f| f.file == file) || self.shape(file).is_some()
    }

    pub fn shape(&self, file: &str) -> Option<&OtherShape> {
        self.other_shape.iter().find(|o| o.file == file)
    }
}
