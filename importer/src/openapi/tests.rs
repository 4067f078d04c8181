use super::*;

fn parse(text: &str) -> Result<Document, String> {
    Document::parse("f.yaml", text, &Limits::default())
}

const DOC: &str = r#"
openapi: 3.0.1
paths:
  /things/{id}:
    parameters: []
    put:
      operationId: putThing
      requestBody: {$ref: '#/components/requestBodies/Thing'}
      responses:
        '200': {$ref: '#/components/responses/Ok'}
        default: {description: any}
    get:
      operationId: getThing
      parameters:
        - {$ref: '#/components/parameters/Page'}
      responses:
        200:
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Thing'}
components:
  parameters:
    Page: {name: page, in: query}
  requestBodies:
    Thing:
      required: true
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Thing'}
  responses:
    Ok: {$ref: '#/components/responses/Ok2'}
    Ok2:
      content:
        application/vnd.x.v1+json: {}
  schemas:
    Thing:
      type: object
      required: [zeta]
      properties:
        zeta: {type: string, nullable: true, maxLength: 8, default: z}
        alpha: {$ref: '#/components/schemas/Alias', readOnly: true}
        mid: {type: [string, 'null'], minimum: '3'}
    Alias: {$ref: '#/components/schemas/a~1b'}
    a/b: {type: integer, format: int64}
    Loop: {$ref: '#/components/schemas/Loop'}
"#;

#[test]
fn properties_keep_document_order_and_facts() {
    let doc = parse(DOC).unwrap();
    let thing = doc.schema_named("Thing").unwrap();
    let names: Vec<&str> = thing
        .properties
        .iter()
        .flatten()
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(names, ["zeta", "alpha", "mid"]);
    let props = thing.properties.as_ref().unwrap();
    assert!(props["zeta"].nullable);
    assert_eq!(
        props["zeta"].bounds.max_length.as_ref().unwrap().as_u64(),
        Some(8)
    );
    assert_eq!(props["zeta"].default, Some(Value::String("z".into())));
    assert!(props["alpha"].read_only);
    assert_eq!(
        props["mid"].ty,
        Some(SchemaType::Many(vec!["string".into(), "null".into()]))
    );
    assert_eq!(props["mid"].single_type(), None);
    assert!(
        props["mid"].bounds.minimum.is_none(),
        "a bound that is no number"
    );
}

#[test]
fn references_resolve_in_one_place() {
    let doc = parse(DOC).unwrap();
    let alpha = &doc
        .schema_named("Thing")
        .unwrap()
        .properties
        .as_ref()
        .unwrap()["alpha"];
    // Through `Alias` to `a/b` (`~1` is `/`).
    assert_eq!(doc.resolve(alpha).format.as_deref(), Some("int64"));
    // A loop ends; the schema stays a reference.
    let looped = doc.schema_named("Loop").unwrap();
    assert_eq!(doc.resolve(looped).ref_name(), Some("Loop"));
    let ops: Vec<_> = doc.operations().collect();
    assert_eq!(ops.len(), 2);
    let (path, method, put) = ops[0];
    assert_eq!((path, method), ("/things/{id}", "put"));
    let body = doc
        .request_body(put.request_body.as_ref().unwrap())
        .unwrap();
    assert!(body.required);
    assert_eq!(put.responses.len(), 1, "`default` has no numeric status");
    let ok = doc.answer(put, 200).unwrap();
    assert!(ok.content.contains_key("application/vnd.x.v1+json"));
    let (_, _, get) = ops[1];
    assert!(
        doc.answer(get, 200).is_some(),
        "a status written as a number"
    );
    let page = doc.parameter(&get.parameters[0]).unwrap();
    assert_eq!(page.location.as_deref(), Some("query"));
}

#[test]
fn a_file_without_paths_reads_as_one() {
    let doc = parse("openapi: 3.1.0\ncomponents: {schemas: {}}\n").unwrap();
    assert!(doc.paths.is_none());
}

/// `{type: object, properties: {a: ...}}` nested `n` times, in flow style.
fn deep_flow(n: usize) -> String {
    let mut s = String::from("openapi: 3.0.0\ncomponents:\n  schemas:\n    Deep: ");
    s.push_str(&"{type: object, properties: {a: ".repeat(n));
    s.push_str("{type: string}");
    s.push_str(&"}}".repeat(n));
    s.push('\n');
    s
}

#[test]
fn a_deeply_nested_description_is_refused_naming_the_file() {
    for text in [
        deep_flow(200_000),
        format!("openapi: 3.0.0\nx:\n{}a\n", "- ".repeat(200_000)),
        format!("openapi: 3.0.0\nx: {}\n", "[".repeat(200_000)),
    ] {
        let err = parse(&text).unwrap_err();
        assert!(
            err.starts_with("f.yaml: nested deeper than 64 levels"),
            "{err}"
        );
    }
}

#[test]
fn nesting_within_the_limit_reads() {
    let doc = parse(&deep_flow(10)).unwrap();
    let mut s = doc.schema_named("Deep").unwrap();
    let mut levels = 0;
    while let Some(p) = &s.properties {
        s = &p["a"];
        levels += 1;
    }
    assert_eq!(levels, 10);
}

#[test]
fn the_reader_checks_the_exact_depth_of_schemas() {
    // Within the text limit, beyond a schema limit of 5: the reader refuses it.
    let limits = Limits {
        max_depth: 5,
        ..Limits::default()
    };
    let text = "openapi: 3.0.0\ncomponents:\n  schemas:\n    Deep:\n      items:\n        items:\n          items: {items: {items: {type: string}}}\n";
    assert!(limits.check(text).is_err());
    let value: Value = serde_yaml::from_str(text).unwrap();
    let err = read::document(&value, 5).unwrap_err();
    assert!(err.contains("deeper than 5"), "{err}");
    assert!(read::document(&value, 8).is_ok());
}

#[test]
fn quoted_and_block_text_does_not_count_as_nesting() {
    let brackets = "[{".repeat(100);
    let text = format!(
        "openapi: 3.0.0\ninfo:\n  description: |\n    {brackets}\n    more {brackets}\n  title: \"{brackets}\"\n  summary: '{brackets}'\n  note: a {brackets}\n  list: [\"]]\", '[[', {{a: b}}]\npaths: {{}}\n"
    );
    assert_eq!(limits::too_deep(&text, 64), None);
    assert!(parse(&text).is_ok());
}

#[test]
fn a_description_over_the_size_cap_is_refused() {
    let limits = Limits {
        max_bytes: 100,
        ..Limits::default()
    };
    let err = Document::parse("big.yaml", &"#".repeat(101), &limits).unwrap_err();
    assert!(
        err.starts_with("big.yaml: 101 bytes, more than the 100-byte limit"),
        "{err}"
    );
}

/// The official descriptions, when they are there, read within the default limits, and their
/// nesting is estimated well under the limit.
#[test]
fn the_official_descriptions_read_within_the_limits() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/reference/openapi");
    let Some(files) = description_files(&dir) else {
        eprintln!("skip: no descriptions at {}", dir.display());
        return;
    };
    for f in files {
        let text = std::fs::read_to_string(dir.join(&f)).unwrap();
        assert_eq!(limits::too_deep(&text, 20), None, "{f}");
        Document::parse(&f, &text, &Limits::default()).unwrap();
    }
}
