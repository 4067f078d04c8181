//! The field-level gate over the vendor's payloads: each field a payload sends is compared
//! with the field of the spec's type it lands in. It agrees when the type names the field and
//! the value has that field's JSON type (an enum value the enum lists, a union value a variant
//! takes); otherwise it lands in `additional_fields` (unknown field), has another JSON type,
//! is an enum value the enum does not list, or a union value no variant takes (`Unknown`). A
//! required field the payload leaves out is a disagreement too. The walk follows the spec's
//! model (`ruckus_codegen::build`), the same one the client is generated from.

use ruckus_codegen::ir::{ApiIr, Ir, TypeIr, TypeKind, TypeRef};
use serde_json::Value;
use std::collections::BTreeMap;

/// Why a field does not agree with its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// The type does not name the field: it lands in `additional_fields`.
    UnknownField,
    /// The value is of another JSON type than the field's.
    WrongType,
    /// A required field the payload leaves out.
    RequiredMissing,
    /// A string the enum does not list (decodes to `Unknown`).
    UnknownEnumValue,
    /// A value no variant of the union takes (decodes to `Unknown`).
    UnionUnknown,
    /// An object, or a list of objects, in a field typed as raw JSON: it decodes, but none of
    /// its fields is typed.
    RawValue,
}

/// One disagreement: where in the payload (a JSON pointer), in which type, and what.
#[derive(Debug, Clone)]
pub struct Finding {
    pub at: String,
    pub type_name: String,
    pub class: Class,
    pub detail: String,
}

/// The comparisons of one payload.
#[derive(Debug, Default)]
pub struct Tally {
    pub agree: usize,
    pub findings: Vec<Finding>,
}

/// The spec's named types, by API and name.
pub struct Types<'ir> {
    by_name: BTreeMap<(&'ir str, &'ir str), &'ir TypeIr>,
}

impl<'ir> Types<'ir> {
    pub fn new(ir: &'ir Ir) -> Self {
        let mut by_name = BTreeMap::new();
        for api in &ir.apis {
            for t in api.areas.iter().flat_map(|a| &a.types) {
                by_name.insert((api.name.as_str(), t.name.as_str()), t);
            }
        }
        Types { by_name }
    }

    fn get(&self, api: &str, name: &str) -> Option<&'ir TypeIr> {
        self.by_name.get(&(api, name)).copied()
    }
}

/// Walks `value` as a value of `ty` (of `api`), adding its comparisons to `tally`. A value
/// that is not of the type's JSON type at all (a list for an object) is one disagreement at
/// `at`.
pub fn walk(types: &Types, api: &ApiIr, ty: &TypeRef, value: &Value, at: &str, tally: &mut Tally) {
    Walk {
        types,
        api: &api.name,
    }
    .element(ty, value, at, tally)
}

struct Walk<'a, 'ir> {
    types: &'a Types<'ir>,
    api: &'a str,
}

impl Walk<'_, '_> {
    /// Whether `value` has the JSON type of `ty` at its top (what a field's comparison checks);
    /// nested fields are compared by the walk itself.
    fn shape_ok(&self, ty: &TypeRef, value: &Value) -> bool {
        match (ty, value) {
            (TypeRef::String, Value::String(_)) => true,
            (TypeRef::Integer, Value::Number(n)) => n.is_i64() || n.is_u64(),
            (TypeRef::Int32, Value::Number(n)) => {
                n.as_i64().is_some_and(|n| i32::try_from(n).is_ok())
            }
            (TypeRef::Number, Value::Number(_)) => true,
            (TypeRef::Boolean, Value::Bool(_)) => true,
            (TypeRef::Json | TypeRef::NotShown(_), _) => true,
            (TypeRef::Array(_), Value::Array(_)) => true,
            (TypeRef::Map(_), Value::Object(_)) => true,
            (TypeRef::Named { name, .. }, _) => match self.types.get(self.api, name) {
                Some(t) => match &t.kind {
                    TypeKind::Object(..) => value.is_object(),
                    TypeKind::Enum(_) => value.is_string(),
                    TypeKind::Alias(inner) => self.shape_ok(inner, value),
                    TypeKind::NotShown(_) => true,
                    TypeKind::Union(_) => true,
                },
                None => false,
            },
            _ => false,
        }
    }

    fn value(&self, ty: &TypeRef, value: &Value, at: &str, tally: &mut Tally) {
        match (ty, value) {
            (TypeRef::Array(inner), Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    self.element(inner, item, &format!("{at}/{i}"), tally);
                }
            }
            (TypeRef::Map(inner), Value::Object(map)) => {
                for (k, v) in map {
                    self.element(inner, v, &format!("{at}/{}", escape(k)), tally);
                }
            }
            (TypeRef::Named { name, .. }, _) => {
                if let Some(t) = self.types.get(self.api, name) {
                    self.named(t, value, at, tally);
                }
            }
            _ => {}
        }
    }

    /// An element of a list or map: of the element type's JSON type, then walked.
    fn element(&self, ty: &TypeRef, value: &Value, at: &str, tally: &mut Tally) {
        if value.is_null() || self.shape_ok(ty, value) {
            self.value(ty, value, at, tally);
        } else {
            let detail = format!("{} is {}", ty.display(), json_type(value));
            tally.findings.push(Finding {
                at: at.to_owned(),
                type_name: ty.display(),
                class: Class::WrongType,
                detail,
            });
        }
    }

    fn named(&self, t: &TypeIr, value: &Value, at: &str, tally: &mut Tally) {
        match (&t.kind, value) {
            (TypeKind::Object(fields, _), Value::Object(map)) => {
                self.object(t, fields, map, at, None, tally)
            }
            (TypeKind::Enum(values), Value::String(s)) if !values.iter().any(|v| v.wire == *s) => {
                tally
                    .findings
                    .push(finding(at, t, Class::UnknownEnumValue, s));
            }
            (TypeKind::Alias(inner), _) => self.value(inner, value, at, tally),
            (TypeKind::Union(u), _) => {
                let chosen = match (&u.discriminator, value) {
                    (Some(d), Value::Object(map)) => {
                        let tag = map.get(d).and_then(Value::as_str);
                        u.variants
                            .iter()
                            .find(|v| v.tag.as_deref() == tag && tag.is_some())
                            .map(|v| (v, Some(d.as_str())))
                    }
                    (Some(_), _) => None,
                    // As the client does: the variants naming most of an object's keys first.
                    (None, _) => {
                        let mut order: Vec<_> = u.variants.iter().collect();
                        order.sort_by_key(|v| std::cmp::Reverse(self.fit(v.type_name(), value)));
                        order
                            .into_iter()
                            .find(|v| self.decodes(&v.ty, value))
                            .map(|v| (v, None))
                    }
                };
                match chosen {
                    Some((variant, tag)) => {
                        match (self.types.get(self.api, variant.type_name()), value) {
                            (Some(vt), Value::Object(map)) => {
                                if let TypeKind::Object(fields, _) = &vt.kind {
                                    self.object(vt, fields, map, at, tag, tally)
                                } else {
                                    self.named(vt, value, at, tally)
                                }
                            }
                            (Some(vt), _) => self.named(vt, value, at, tally),
                            (None, _) => {}
                        }
                    }
                    None => {
                        let detail = compact(value);
                        tally
                            .findings
                            .push(finding(at, t, Class::UnionUnknown, &detail));
                    }
                }
            }
            _ => {}
        }
    }

    /// The fields of one object: each present field is one comparison; each required field
    /// left out is a disagreement. `tag` is a union's discriminator, which the union owns.
    fn object(
        &self,
        t: &TypeIr,
        fields: &[ruckus_codegen::ir::FieldIr],
        map: &serde_json::Map<String, Value>,
        at: &str,
        tag: Option<&str>,
        tally: &mut Tally,
    ) {
        for (k, v) in map {
            let here = format!("{at}/{}", escape(k));
            if tag == Some(k.as_str()) && !fields.iter().any(|f| f.wire == *k) {
                tally.agree += 1;
                continue;
            }
            let Some(f) = fields.iter().find(|f| f.wire == *k) else {
                tally
                    .findings
                    .push(finding(&here, t, Class::UnknownField, k));
                continue;
            };
            if v.is_null() {
                if f.required
                    && !f.nullable
                    && !matches!(f.ty, TypeRef::Json | TypeRef::NotShown(_))
                {
                    tally
                        .findings
                        .push(finding(&here, t, Class::WrongType, "null"));
                } else {
                    tally.agree += 1;
                }
                continue;
            }
            if untyped_fields(&f.ty, v) {
                tally
                    .findings
                    .push(finding(&here, t, Class::RawValue, &compact(v)));
            } else if self.shape_ok(&f.ty, v) {
                tally.agree += 1;
                self.value(&f.ty, v, &here, tally);
            } else {
                let detail = format!("{} is {}", f.ty.display(), json_type(v));
                tally
                    .findings
                    .push(finding(&here, t, Class::WrongType, &detail));
            }
        }
        for f in fields
            .iter()
            .filter(|f| f.required && !map.contains_key(&f.wire))
        {
            if tag == Some(f.wire.as_str()) {
                continue;
            }
            let here = format!("{at}/{}", escape(&f.wire));
            tally
                .findings
                .push(finding(&here, t, Class::RequiredMissing, &f.wire));
        }
    }

    /// How many keys of an object value the object type `name` names.
    fn fit(&self, name: &str, value: &Value) -> usize {
        match (self.types.get(self.api, name).map(|t| &t.kind), value) {
            (Some(TypeKind::Object(fields, _)), Value::Object(map)) => map
                .keys()
                .filter(|k| fields.iter().any(|f| f.wire == **k))
                .count(),
            _ => 0,
        }
    }

    /// Whether an untagged union's variant would take `value`: the walk finds no field of
    /// another type and no required field missing (unknown fields are kept, so they do not
    /// stop a variant from decoding).
    fn decodes(&self, ty: &TypeRef, value: &Value) -> bool {
        if !self.shape_ok(ty, value) {
            return false;
        }
        let mut tally = Tally::default();
        self.value(ty, value, "", &mut tally);
        !tally
            .findings
            .iter()
            .any(|f| matches!(f.class, Class::WrongType | Class::RequiredMissing))
    }
}

fn finding(at: &str, t: &TypeIr, class: Class, detail: &str) -> Finding {
    Finding {
        at: at.to_owned(),
        type_name: t.name.clone(),
        class,
        detail: detail.to_owned(),
    }
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "an integer",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn compact(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(80) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text,
    }
}

/// Whether a value of the type `ty` keeps fields of its own as raw JSON: an object with keys
/// where the type says only `json`.
fn untyped_fields(ty: &TypeRef, v: &Value) -> bool {
    match (ty, v) {
        (TypeRef::Json | TypeRef::NotShown(_), _) => holds_object(v),
        (TypeRef::Array(inner), Value::Array(items)) => {
            items.iter().any(|x| untyped_fields(inner, x))
        }
        (TypeRef::Map(inner), Value::Object(map)) => map.values().any(|x| untyped_fields(inner, x)),
        _ => false,
    }
}

/// Whether a value has fields of its own: an object with keys, or a list holding one.
fn holds_object(v: &Value) -> bool {
    match v {
        Value::Object(m) => !m.is_empty(),
        Value::Array(items) => items.iter().any(holds_object),
        _ => false,
    }
}
