//! Field rules inferred from a kind's schemas: its id and the fields only the read answer has
//! (set by the service), the fields only the create body has (write-only), fields the schemas
//! mark as passwords or whose names say they are credentials (secret), and defaults the create
//! (or settings) body's schema states.

use super::schema::{self, Field};
use ruckus_one_catalog::{FieldFlag, FieldRule, ResourceKind, Table};
use serde_json::Value;

/// How deep secrets are looked for (a RADIUS profile's `/primary/sharedSecret`).
const SECRET_DEPTH: usize = 4;

/// Field names the service sets whatever is sent: timestamps and the owning tenant.
const SERVICE_NAMES: [&str; 14] = [
    "createdDate",
    "updatedDate",
    "createdAt",
    "updatedAt",
    "createdTime",
    "updatedTime",
    "creationDate",
    "createdOn",
    "lastUpdated",
    "lastModified",
    "modifiedDate",
    "lastModifiedDate",
    "lastUpdatedTime",
    "tenantId",
];

/// Field names (lower case) that hold a credential, when the field is text.
const SECRET_NAMES: [&str; 7] = [
    "passphrase",
    "password",
    "secret",
    "sharedsecret",
    "key",
    "psk",
    "presharedkey",
];

/// The schemas of a kind: read answer, create body, update body (each when typed).
pub struct Bodies<'a> {
    pub read: Option<(&'a str, &'a Value)>,
    pub create: Option<(&'a str, &'a Value)>,
    pub update: Option<(&'a str, &'a Value)>,
}

/// A schema's name for the provenance: its `$ref`'s target, else the operation's.
fn label<'a>(schema: &'a Value, op: &'a str) -> &'a str {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.rsplit('/').next())
        .unwrap_or(op)
}

impl<'a> Bodies<'a> {
    pub fn of(table: &'a Table, kind: &ResourceKind) -> Bodies<'a> {
        let route = |id: &Option<String>| id.as_deref().and_then(|id| table.route(id));
        let typed = |s: &'a Value, op: &'a str| schema::typed(table, s).then(|| (label(s, op), s));
        let response =
            |id: &Option<String>| route(id).and_then(|r| typed(&r.response.schema, r.id.as_str()));
        // A body that creates many objects at once (an array) stands for one of its members.
        let request = |id: &Option<String>| {
            route(id)
                .and_then(|r| r.request.as_ref().map(|b| (b, r.id.as_str())))
                .and_then(|(b, op)| {
                    let one = match b.schema.get("type") {
                        Some(t) if t == "array" => b.schema.get("items").unwrap_or(&b.schema),
                        _ => &b.schema,
                    };
                    typed(one, op)
                })
        };
        Bodies {
            read: response(&kind.operations.read),
            create: request(&kind.operations.create),
            update: request(&kind.operations.update),
        }
    }

    /// Every typed schema, read first.
    pub fn all(&self) -> impl Iterator<Item = (&'a str, &'a Value)> {
        [self.read, self.create, self.update].into_iter().flatten()
    }
}

fn rule(path: String, flag: FieldFlag, default: Option<Value>, why: String) -> FieldRule {
    FieldRule {
        path,
        flag,
        default,
        provenance: format!("inferred: {why}"),
    }
}

/// The inferred rules of `kind`, each (path, flag) once.
pub fn infer(table: &Table, kind: &ResourceKind, bodies: &Bodies<'_>) -> Vec<FieldRule> {
    let mut out: Vec<FieldRule> = Vec::new();
    let mut add = |r: FieldRule| {
        if !out.iter().any(|o| o.path == r.path && o.flag == r.flag) {
            out.push(r);
        }
    };
    if let Some(id) = kind
        .id_field
        .as_ref()
        .filter(|id| !kind.identity.contains(id))
    {
        add(rule(
            id.clone(),
            FieldFlag::ServiceSet,
            None,
            "the object's id, which the service assigns on create".into(),
        ));
    }
    if let Some((read_name, read)) = bodies.read {
        // The bodies sent; a field of the read answer that none of them has is the service's.
        let sent: Vec<(&str, &Value)> = [bodies.create, bodies.update]
            .into_iter()
            .flatten()
            .collect();
        let names: Vec<&str> = sent.iter().map(|(n, _)| *n).collect();
        for f in schema::fields(table, read, 1) {
            let only_read = !sent.is_empty()
                && sent
                    .iter()
                    .all(|(name, s)| *name != read_name && !schema::has(table, s, &f.pointer));
            if SERVICE_NAMES.contains(&f.name()) {
                add(rule(
                    f.pointer.clone(),
                    FieldFlag::ServiceSet,
                    None,
                    format!("`{}` names a time or owner the service records", f.name()),
                ));
            } else if only_read {
                add(rule(
                    f.pointer.clone(),
                    FieldFlag::ServiceSet,
                    None,
                    format!(
                        "in the read answer (`{read_name}`), in no body sent (`{}`)",
                        names.join("`, `")
                    ),
                ));
            }
        }
    }
    write_only(table, bodies, &mut add);
    for (name, s) in bodies.all() {
        for f in schema::fields(table, s, SECRET_DEPTH) {
            if let Some(why) = secret(table, &f, name) {
                add(rule(f.pointer.clone(), FieldFlag::Secret, None, why));
            }
        }
    }
    if let Some((name, s)) = bodies.create.or(bodies.update) {
        for f in schema::fields(table, s, 1) {
            if let Some(v) = f.default() {
                add(rule(
                    f.pointer.clone(),
                    FieldFlag::Default,
                    Some(v.clone()),
                    format!("the schema of `{name}` gives the default"),
                ));
            }
        }
    }
    out
}

/// Fields of the create body that the read answer (another schema) does not have: sent, never
/// read back.
fn write_only(table: &Table, bodies: &Bodies<'_>, add: &mut impl FnMut(FieldRule)) {
    let (Some((read_name, read)), Some((sent_name, sent))) = (bodies.read, bodies.create) else {
        return;
    };
    if read_name == sent_name {
        return;
    }
    for f in schema::fields(table, sent, 1) {
        if !schema::has(table, read, &f.pointer) {
            add(rule(
                f.pointer.clone(),
                FieldFlag::WriteOnly,
                None,
                format!(
                    "in the create body (`{sent_name}`), not in the read answer (`{read_name}`)"
                ),
            ));
        }
    }
}

/// Why a field is a secret, when it is one.
fn secret(table: &Table, f: &Field<'_>, schema: &str) -> Option<String> {
    if f.password(table) {
        return Some(format!(
            "`{schema}` marks it a password (`format: password`)"
        ));
    }
    let lower = f.name().to_ascii_lowercase();
    let credential = SECRET_NAMES.contains(&lower.as_str())
        || ["passphrase", "password", "sharedsecret", "secret"]
            .iter()
            .any(|s| lower.ends_with(s));
    (credential && f.string(table)).then(|| {
        format!(
            "its name (`{}`) says it holds a credential, and it is text",
            f.name()
        )
    })
}
