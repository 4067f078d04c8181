//! The layer over a small hand-made table: what is inferred, and each check's diagnostic (with
//! its line).

use super::build;
use crate::source::SourceFile;
use crate::spec::resources::ResourcesFile;
use ruckus_one_catalog::{FieldFlag, ResourceShape, Table, UpdateStyle};
use serde_json::{Value, json};

fn route(
    id: &str,
    method: &str,
    path: &str,
    role: &str,
    family: &str,
    req: Option<&str>,
    resp: Option<&str>,
) -> Value {
    let params: Vec<Value> = path
        .split('/')
        .filter_map(|s| s.strip_prefix('{')?.strip_suffix('}'))
        .map(|p| json!({"name": p, "required": true, "schema": {"type": "string"}}))
        .collect();
    let schema = |s: Option<&str>| {
        s.map_or(
            json!({}),
            |n| json!({"$ref": format!("#/components/schemas/{n}")}),
        )
    };
    json!({
        "id": id, "area": "things", "summary": id, "method": method, "path": path,
        "lifecycle": "stable", "provenance": "documented", "status": 200, "statuses": [200],
        "async": false, "reads": method == "GET" || role == "query", "path_params": params, "query": [], "headers": [],
        "request": req.map(|r| json!({"kind": "json", "required": true, "types": ["application/json"], "schema": schema(Some(r))})),
        "response": {"kind": "json", "media_type": "application/json", "types": ["application/json"], "schema": schema(resp)},
        "versions": [], "paging": null, "error_family": "e", "service": "s",
        "family": family, "role": role, "command": [id]
    })
}

/// The test table's routes: id, method, path, role, family, request and response schema
/// (`-`: none).
const ROUTES: &str = "
create_thing POST /things create /things Thing -
get_thing GET /things/{thingId} read /things - Thing
update_thing PUT /things/{thingId} replace /things Thing -
delete_thing DELETE /things/{thingId} delete /things - -
query_things POST /things/query query /things - -
create_part POST /things/{thingId}/parts create /things/{}/parts NewPart -
get_part GET /things/{thingId}/parts/{partId} read /things/{}/parts - Part
patch_part PATCH /things/{thingId}/parts/{partId} merge /things/{}/parts Part -
delete_part DELETE /things/{thingId}/parts/{partId} delete /things/{}/parts - -
create_other POST /others create /others Other -
get_other GET /others/{otherId} read /others - Other
update_other PUT /others/{otherId} replace /others Other -
delete_other DELETE /others/{otherId} delete /others - -
activate_other PUT /things/{thingId}/others/{otherId} upsert /things/{}/others - -
deactivate_other DELETE /things/{thingId}/others/{otherId} delete /things/{}/others - -
get_settings GET /things/{thingId}/settings settings_read /things/{}/settings - Settings
put_settings PUT /things/{thingId}/settings settings_write /things/{}/settings Settings -
misc GET /misc canned /misc - -
";

fn table() -> Table {
    fn some(s: &str) -> Option<&str> {
        (s != "-").then_some(s)
    }
    let routes: Vec<Value> = ROUTES
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let w: Vec<&str> = l.split(' ').collect();
            route(w[0], w[1], w[2], w[3], w[4], some(w[5]), some(w[6]))
        })
        .collect();
    let schemas = json!({
        "Thing": {"type": "object", "properties": {
            "id": {"type": "string"}, "name": {"type": "string"},
            "createdDate": {"type": "string"}, "passphrase": {"type": "string"},
            "mode": {"type": "string", "default": "auto"},
            "otherId": {"type": "string"},
            "members": {"type": "array", "items": {"$ref": "#/components/schemas/Member"}}}},
        "Member": {"type": "object", "properties": {"serial": {"type": "string"}}},
        "Part": {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}},
        "NewPart": {"type": "object", "properties": {"name": {"type": "string"}, "copyOf": {"type": "string"}}},
        "Other": {"type": "object", "properties": {
            "id": {"type": "string"}, "name": {"type": "string"}, "thingId": {"type": "string"},
            "key": {"type": "string", "format": "password"}}},
        "Settings": {"type": "object", "properties": {"enabled": {"type": "boolean"}}}
    });
    let t = json!({
        "api": {
            "name": "demo", "title": "Demo", "hosts": {"asia": "", "europe": "", "north_america": ""},
            "token": {"url": "", "url_without_tenant": "", "tenant_header": ""},
            "prefix": "", "auth": "client_credentials", "default_family": "e", "families": [],
            "rate_limits": []
        },
        "routes": routes,
        "schemas": schemas
    });
    serde_json::from_value(t).expect("the test table parses")
}

const BASE: &str = "api: demo\nkinds:\n  - name: thing\n    title: A thing.\n    family: /things\n  - name: part\n    title: A part.\n    family: /things/{}/parts\n  - name: other\n    title: Another.\n    family: /others\n  - name: thing_other\n    title: A link.\n    family: /things/{}/others\n  - name: thing_settings\n    title: Settings.\n    family: /things/{}/settings\n";

fn run(text: &str) -> Result<ruckus_one_catalog::Resources, Vec<crate::Diagnostic>> {
    let spec: ResourcesFile = serde_yaml::from_str(text).expect("the test spec parses");
    let file = SourceFile::new("resources.yaml".into(), text.to_owned());
    build(&file, &spec, &[table()]).map(|(r, _)| r)
}

/// The only diagnostic of `text`, which must say `says`, at `line`.
fn fails(text: &str, says: &str, line: usize) {
    let diags = run(text).expect_err("the spec is refused");
    assert!(
        diags
            .iter()
            .any(|d| d.message.contains(says) && d.line == line),
        "expected `{says}` at line {line}, got {diags:#?}"
    );
}

#[test]
fn drafts_give_operations_parents_identity_flags_and_links() {
    let r = run(BASE).expect("the base layer is valid");
    let names: Vec<&str> = r.kinds.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(
        names,
        ["thing", "part", "other", "thing_other", "thing_settings"]
    );
    let thing = r.kind("thing").unwrap();
    assert_eq!(thing.shape, ResourceShape::Collection);
    assert_eq!(thing.operations.list.as_deref(), Some("query_things"));
    assert_eq!(thing.update_style, Some(UpdateStyle::Replace));
    assert_eq!(
        (
            thing.identity.as_slice(),
            thing.id_field.as_deref(),
            thing.id_param.as_deref()
        ),
        (&["/name".to_owned()][..], Some("/id"), Some("thingId"))
    );
    let flag = |k: &ruckus_one_catalog::ResourceKind, path: &str| {
        k.fields.iter().find(|f| f.path == path).map(|f| f.flag)
    };
    assert_eq!(flag(thing, "/id"), Some(FieldFlag::ServiceSet));
    assert_eq!(flag(thing, "/createdDate"), Some(FieldFlag::ServiceSet));
    assert_eq!(flag(thing, "/passphrase"), Some(FieldFlag::Secret));
    assert_eq!(flag(thing, "/mode"), Some(FieldFlag::Default));
    assert!(
        thing
            .provenance
            .starts_with("inferred: the routes of family `/things`"),
        "{}",
        thing.provenance
    );
    let part = r.kind("part").unwrap();
    assert_eq!(
        (part.parent.as_deref(), part.parent_param.as_deref()),
        (Some("thing"), Some("thingId"))
    );
    assert_eq!(part.update_style, Some(UpdateStyle::Merge));
    assert_eq!(flag(part, "/copyOf"), Some(FieldFlag::WriteOnly));
    assert_eq!(
        flag(r.kind("other").unwrap(), "/key"),
        Some(FieldFlag::Secret)
    );
    let link = r.kind("thing_other").unwrap();
    assert_eq!(link.shape, ResourceShape::Activation);
    assert_eq!(
        (
            link.references[0].kind.as_str(),
            link.references[0].param.as_deref()
        ),
        ("other", Some("otherId"))
    );
    assert!(link.gate_exception.is_some(), "nothing reads a link back");
    let settings = r.kind("thing_settings").unwrap();
    assert_eq!(
        (settings.shape, settings.parent.as_deref()),
        (ResourceShape::Settings, Some("thing"))
    );
}

#[test]
fn curated_keys_replace_what_was_inferred() {
    let text = format!(
        "{BASE}    identity: [/enabled]\n    fields:\n      - path: /enabled\n        flag: default\n        default: true\n        provenance: 'reference: a payload'\n"
    );
    let r = run(&text).expect("valid");
    let s = r.kind("thing_settings").unwrap();
    assert_eq!(s.identity, ["/enabled"]);
    assert_eq!(s.fields[0].default, Some(json!(true)));
    let dropped = BASE.replace(
        "    family: /things\n",
        "    family: /things\n    drop_fields: [/mode]\n",
    );
    let r = run(&dropped).expect("valid");
    assert!(
        r.kind("thing")
            .unwrap()
            .fields
            .iter()
            .all(|f| f.path != "/mode")
    );
}

#[test]
fn a_family_without_a_draft_is_refused() {
    fails(
        "api: demo\nkinds:\n  - name: misc\n    title: M.\n    family: /misc\n",
        "has no inferred draft",
        5,
    );
}

#[test]
fn an_unknown_api_is_refused() {
    fails(
        "api: nope\nkinds:\n  - name: misc\n    title: M.\n    family: /misc\n",
        "API `nope` has no operation table",
        3,
    );
}

#[test]
fn an_operation_that_does_not_exist_is_refused() {
    let text = BASE.replace(
        "    family: /others\n",
        "    family: /others\n    operations:\n      read: get_nothing\n",
    );
    fails(&text, "read operation `get_nothing` is no operation", 12);
}

#[test]
fn an_operation_in_the_wrong_slot_is_refused() {
    let text = BASE.replace("    family: /others\n", "    family: /others\n    operations:\n      read: delete_other\n      list: create_other\n");
    fails(&text, "read operation `delete_other` is DELETE", 12);
    fails(
        &text,
        "list operation `create_other` is POST /others; a list is GET or POST (a POST only on a `/query` path)",
        12,
    );
}

#[test]
fn an_update_style_that_does_not_fit_the_method_is_refused() {
    let text = BASE.replace(
        "    family: /others\n",
        "    family: /others\n    update_style: merge\n",
    );
    fails(
        &text,
        "`update_style: merge` does not fit its update operation's method PUT",
        12,
    );
}

#[test]
fn a_parent_family_outside_the_layer_is_refused() {
    fails(
        "api: demo\nkinds:\n  - name: part\n    title: P.\n    family: /things/{}/parts\n",
        "its parent's family `/things` is no kind of the layer",
        5,
    );
}

#[test]
fn a_parent_that_is_no_kind_is_refused() {
    let text = BASE.replace(
        "    family: /things/{}/parts\n",
        "    family: /things/{}/parts\n    parent: gadget\n",
    );
    fails(&text, "parent `gadget` is no kind of the layer", 9);
}

#[test]
fn params_that_the_operations_lack_are_refused() {
    let text = BASE.replace(
        "    family: /things/{}/parts\n",
        "    family: /things/{}/parts\n    parent_param: thingKey\n    id_param: partKey\n",
    );
    fails(
        &text,
        "`thingKey` is no path parameter of its create operation `create_part`",
        9,
    );
    fails(
        &text,
        "`partKey` is no path parameter of its read operation `get_part`",
        10,
    );
}

#[test]
fn pointers_that_name_no_field_are_refused() {
    let text = BASE.replace("    family: /others\n", "    family: /others\n    identity: [/title]\n    id_field: id\n    fields:\n      - path: /members/*/serial\n        flag: volatile\n        provenance: documented\n");
    fails(&text, "`/title` names no field of its read answer", 12);
    fails(&text, "`id` is no JSON pointer", 13);
    fails(&text, "`/members/*/serial` names no field", 14);
    // The same pointer through an array of a `$ref` names a field of a thing.
    let ok = BASE.replace("    family: /things\n", "    family: /things\n    fields:\n      - path: /members/*/serial\n        flag: volatile\n        provenance: documented\n");
    assert!(run(&ok).is_ok());
}

#[test]
fn a_default_rule_needs_its_value_and_only_it_takes_one() {
    let text = BASE.replace("    family: /others\n", "    family: /others\n    fields:\n      - path: /name\n        flag: default\n        provenance: documented\n      - path: /thingId\n        flag: volatile\n        default: x\n        provenance: documented\n");
    fails(
        &text,
        "the `default` rule of `/name` needs its `default` value",
        12,
    );
    fails(
        &text,
        "`/thingId`: only a `default` rule takes a value, not `volatile`",
        12,
    );
}

#[test]
fn references_to_unknown_kinds_or_missing_places_are_refused() {
    let text = BASE.replace("    family: /others\n", "    family: /others\n    references:\n      - kind: gadget\n        field: /thingId\n      - kind: thing\n        param: thingId\n      - kind: thing\n");
    fails(&text, "a reference names kind `gadget`", 12);
    fails(
        &text,
        "`thingId` is no path parameter of its create operation `create_other`",
        12,
    );
    fails(
        &text,
        "the reference to `thing` needs exactly one of `field` and `param`",
        12,
    );
}

#[test]
fn a_cycle_of_references_needs_a_deferred_one() {
    let cycle = BASE
        .replace(
            "    family: /things\n",
            "    family: /things\n    references:\n      - kind: other\n        field: /otherId\n",
        )
        .replace(
            "    family: /others\n",
            "    family: /others\n    references:\n      - kind: thing\n        field: /thingId\n",
        );
    fails(&cycle, "reference cycle thing -> other -> thing", 6);
    let deferred = cycle.replace(
        "        field: /otherId\n",
        "        field: /otherId\n        deferred: true\n",
    );
    let r = run(&deferred).expect("a deferred reference breaks the cycle");
    let at = |n: &str| r.kinds.iter().position(|k| k.name == n).unwrap();
    assert!(
        at("thing") < at("other"),
        "other references thing; the reference back is deferred"
    );
}

#[test]
fn names_are_snake_case_and_unique() {
    let text = format!(
        "{BASE}  - name: thing\n    title: Again.\n    family: /things\n  - name: BadName\n    title: B.\n    family: /others\n"
    );
    fails(&text, "kind `thing` is defined twice", 18);
    fails(&text, "another kind takes family `/things` already", 20);
    fails(&text, "kind name `BadName` must be snake_case", 21);
}

#[test]
fn a_kind_written_whole_needs_shape_and_provenance() {
    let base = "api: demo\nkinds:\n  - name: other\n    title: O.\n    operations: {create: create_other, read: get_other, delete: delete_other}\n    id_param: otherId\n";
    fails(base, "names no `family`, so it needs a `shape`", 3);
    let shaped = base.replace("    id_param", "    shape: collection\n    id_param");
    fails(&shaped, "names no `family`, so it needs a `provenance`", 3);
    let whole = format!("{shaped}    provenance: 'reference: a test'\n");
    let r = run(&whole).expect("valid");
    assert_eq!(r.kinds[0].provenance, "reference: a test");
}

#[test]
fn provenances_have_one_of_three_forms() {
    let text = BASE.replace(
        "    family: /others\n",
        "    family: /others\n    provenance: guessed\n",
    );
    fails(&text, "provenance `guessed` must be", 12);
}

#[test]
fn dropping_a_rule_that_was_not_inferred_is_refused() {
    let text = BASE.replace(
        "    family: /others\n",
        "    family: /others\n    drop_fields: [/nothing]\n",
    );
    fails(
        &text,
        "`drop_fields` names `/nothing`, which no inferred rule has",
        12,
    );
}

#[test]
fn unknown_keys_and_values_outside_a_set_are_refused_where_they_are() {
    let e = serde_yaml::from_str::<ResourcesFile>(
        "api: demo\nkinds:\n  - name: a\n    title: A.\n    familly: /x\n",
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("unknown field `familly`") && e.location().unwrap().line() == 5,
        "{e}"
    );
    let e = serde_yaml::from_str::<ResourcesFile>(
        "api: demo\nkinds:\n  - name: a\n    title: A.\n    shape: document\n",
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("resource shape `document` must be collection, settings or activation"),
        "{e}"
    );
}

#[test]
fn a_spec_without_a_resources_file_has_no_layer() {
    let top = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/broken/base/ruckus-one.yaml");
    let files = super::files(&top, &Default::default()).expect("no layer, no problem");
    assert!(files.is_empty());
}

#[test]
fn an_activation_links_the_family_named_by_its_last_segment() {
    let layer = [
        "/wifiNetworks",
        "/templates/wifiNetworks",
        "/venues",
        "/venues/{}/apGroups",
        "/others/{}/apGroups",
    ];
    let linked = |f: &str| super::infer::linked_family(f, layer.iter().copied());
    assert_eq!(
        linked("/venues/{}/wifiNetworks").as_deref(),
        Some("/wifiNetworks")
    );
    assert_eq!(
        linked("/templates/venues/{}/wifiNetworks").as_deref(),
        Some("/templates/wifiNetworks")
    );
    // Under a shared parent: the parent's own collection, not another parent's.
    assert_eq!(
        linked("/venues/{}/wifiNetworks/{}/apGroups").as_deref(),
        Some("/venues/{}/apGroups")
    );
    assert_eq!(linked("/venues/{}/gadgets"), None);
}
