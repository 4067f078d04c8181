//! The arguments of a call, checked against the operation's table before anything is sent:
//! every path parameter given, no unknown parameter, each value of its schema's type and
//! limits, the body present when required and of the request's schema.

use serde_json::{Map, Value};

use crate::index::Op;
use crate::schema;

/// A call's checked arguments.
#[derive(Debug, Clone, Default)]
pub(crate) struct Checked {
    /// The path parameters' values, in the order of the path's placeholders.
    pub path: Vec<String>,
    /// Query parameters (names from the table).
    pub query: Vec<(&'static str, String)>,
    pub headers: Vec<(&'static str, String)>,
    pub body: Option<Value>,
}

/// The parameters given as `params` (by wire name) and `body`, checked against `op`.
pub(crate) fn check(
    op: Op,
    params: &Map<String, Value>,
    body: Option<&Value>,
) -> Result<Checked, String> {
    let route = op.route;
    let mut problems = Vec::new();
    let known = route
        .path_params
        .iter()
        .chain(&route.query)
        .chain(&route.headers);
    let known_names: Vec<&str> = known.map(|p| p.name.as_str()).collect();
    for name in params.keys() {
        if !known_names.contains(&name.as_str()) {
            problems.push(format!(
                "params.{name}: not a parameter of {} (it has: {})",
                route.id,
                if known_names.is_empty() {
                    "none".to_owned()
                } else {
                    known_names.join(", ")
                }
            ));
        }
    }
    let mut checked = Checked::default();
    for p in &route.path_params {
        match params.get(&p.name) {
            Some(v) => {
                problems.extend(schema::check(
                    v,
                    &p.schema,
                    op.table,
                    &format!("params.{}", p.name),
                ));
                checked.path.push(scalar_text(v));
            }
            None => problems.push(format!("params.{}: required (path parameter)", p.name)),
        }
    }
    for (list, out) in [
        (&route.query, &mut checked.query),
        (&route.headers, &mut checked.headers),
    ] {
        for p in list.iter() {
            match params.get(&p.name) {
                Some(v) => {
                    problems.extend(schema::check(
                        v,
                        &p.schema,
                        op.table,
                        &format!("params.{}", p.name),
                    ));
                    out.push((p.name.as_str(), scalar_text(v)));
                }
                None if p.required => problems.push(format!("params.{}: required", p.name)),
                None => {}
            }
        }
    }
    match (&route.request, body) {
        (None, Some(_)) => problems.push(format!("body: {} takes no body", route.id)),
        (Some(request), None) if request.required => {
            problems.push("body: required (see describe_operation for its shape)".to_owned());
        }
        (Some(request), Some(value)) => {
            problems.extend(schema::check(value, &request.schema, op.table, "body"));
            checked.body = Some(value.clone());
        }
        _ => {}
    }
    if problems.is_empty() {
        Ok(checked)
    } else {
        Err(format!(
            "nothing was sent; the arguments do not fit {}:\n- {}",
            route.id,
            problems.join("\n- ")
        ))
    }
}

/// A parameter's value as sent: strings as they are, other values as JSON.
fn scalar_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Index;
    use ruckus_one_catalog::Catalog;
    use serde_json::json;

    fn op(id: &str) -> Op {
        Index::new(Catalog::get().unwrap()).get(id).unwrap()
    }

    fn params(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn path_parameters_and_bodies_are_checked() {
        let err = check(op("get_venue"), &params(json!({})), None).unwrap_err();
        assert!(err.contains("params.venueId: required"), "{err}");
        let ok = check(op("get_venue"), &params(json!({"venueId": "v-1"})), None).unwrap();
        assert_eq!(ok.path, ["v-1"]);
        let err = check(op("create_venue"), &params(json!({})), None).unwrap_err();
        assert!(err.contains("body: required"), "{err}");
        let err = check(
            op("create_venue"),
            &params(json!({"x": 1})),
            Some(&json!({"name": 1})),
        )
        .unwrap_err();
        assert!(err.contains("params.x: not a parameter"), "{err}");
        assert!(err.contains("body/name: expected string"), "{err}");
        let err = check(
            op("get_venue"),
            &params(json!({"venueId": "v"})),
            Some(&json!({})),
        )
        .unwrap_err();
        assert!(err.contains("takes no body"), "{err}");
    }
}
