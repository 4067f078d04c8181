use super::fields::string_enum;
use super::shapes::{common_suffix, common_words, joined_siblings, siblings};
use super::*;

fn doc(text: &str) -> BTreeMap<String, Document> {
    let mut docs = BTreeMap::new();
    let doc = Document::parse("f.yaml", text, &Default::default()).unwrap();
    docs.insert("f.yaml".to_owned(), doc);
    docs
}

const DOC: &str = r#"
components:
  schemas:
    Net:
      type: object
      required: [type]
      properties:
        id: {type: string, readOnly: true}
        type: {type: string}
      discriminator: {propertyName: type}
    PskNet:
      allOf:
        - $ref: '#/components/schemas/Net'
        - properties:
            passphrase: {type: string, minLength: 8, maxLength: 63}
            mode: {type: string, enum: [A, B]}
      required: [passphrase]
    OpenNet:
      allOf:
        - $ref: '#/components/schemas/Net'
        - properties:
            name: {type: string}
    VenueDto_V1_1:
      type: object
      required: [id, name]
      properties:
        id: {type: string, readOnly: true}
        name: {type: string}
        tags: {type: array, items: {type: string}}
        extra: {type: object, additionalProperties: {type: integer, format: int64}}
    Wrapper:
      oneOf:
        - $ref: '#/components/schemas/VenueDto_V1_1'
        - type: object
"#;

#[test]
fn discriminated_bases_become_unions_of_flattened_variants() {
    let docs = doc(DOC);
    let mut c = Converter::new(&docs, BTreeSet::new(), BTreeMap::new());
    let body = Schema::from_yaml(
        "oneOf: [{$ref: '#/components/schemas/OpenNet'}, {$ref: '#/components/schemas/PskNet'}]",
    );
    assert_eq!(c.body("f.yaml", &body, "CreateNet").as_deref(), Some("Net"));
    let Kind::Union {
        discriminator,
        variants,
    } = &c.drafts["Net"].kind
    else {
        panic!("not a union: {:?}", c.drafts["Net"]);
    };
    assert_eq!(discriminator.as_deref(), Some("type"));
    assert_eq!(variants[0].ty, "OpenNet");
    assert_eq!(variants[0].value.as_deref(), Some("OpenNet"));
    assert_eq!(variants[0].name.as_deref(), Some("Open"));
    let Kind::Object(fields) = &c.drafts["PskNet"].kind else {
        panic!("not an object")
    };
    let names: Vec<_> = fields
        .iter()
        .map(|f| (f.name.as_str(), f.required))
        .collect();
    assert_eq!(
        names,
        [
            ("id", false),
            ("type", true),
            ("passphrase", true),
            ("mode", false)
        ]
    );
    assert_eq!(fields[2].constraints.len(), 2);
    assert_eq!(fields[3].ty, "PskNetMode");
    assert_eq!(
        c.drafts["PskNetMode"].kind,
        Kind::Enum(vec!["A".into(), "B".into()])
    );
}

#[test]
fn names_read_as_rust_and_one_of_an_open_object_is_the_object() {
    let docs = doc(DOC);
    let mut c = Converter::new(&docs, BTreeSet::new(), BTreeMap::new());
    let body = Schema::from_yaml("$ref: '#/components/schemas/Wrapper'");
    assert_eq!(c.body("f.yaml", &body, "X").as_deref(), Some("Venue"));
    let Kind::Object(fields) = &c.drafts["Venue"].kind else {
        panic!("not an object")
    };
    assert_eq!(fields[2].ty, "array<string>");
    assert_eq!(fields[3].ty, "map<int64>");
    assert!(!fields[0].required, "read-only fields are never required");
    let raw = Schema::from_yaml("type: object");
    assert_eq!(c.body("f.yaml", &raw, "X"), None);
}

#[test]
fn existing_types_gain_missing_fields_and_collisions_get_new_names() {
    let docs = doc(DOC);
    let mut existing = BTreeMap::new();
    existing.insert("Venue".to_owned(), BTreeSet::from(["name".to_owned()]));
    let taken = BTreeSet::from(["Venue".to_owned(), "OpenNet".to_owned()]);
    let mut c = Converter::new(&docs, taken, existing);
    let body = Schema::from_yaml("$ref: '#/components/schemas/VenueDto_V1_1'");
    assert_eq!(c.body("f.yaml", &body, "X").as_deref(), Some("Venue"));
    let added: Vec<_> = c.additions["Venue"]
        .1
        .iter()
        .map(|(f, _)| f.name.as_str())
        .collect();
    assert_eq!(added, ["id", "tags", "extra"]);
    let open = Schema::from_yaml("$ref: '#/components/schemas/OpenNet'");
    assert_eq!(c.body("f.yaml", &open, "X").as_deref(), Some("FOpenNet"));
}

#[test]
fn a_curated_type_stands_for_schemas_of_its_name_in_its_own_service_only() {
    let docs = doc(DOC);
    let mut existing = BTreeMap::new();
    existing.insert("Venue".to_owned(), BTreeSet::from(["name".to_owned()]));
    let taken = BTreeSet::from(["Venue".to_owned()]);
    let mut c = Converter::new(&docs, taken, existing);
    c.restrict_existing(BTreeMap::from([(
        "Venue".to_owned(),
        "venue_service.yaml".to_owned(),
    )]));
    let body = Schema::from_yaml("$ref: '#/components/schemas/VenueDto_V1_1'");
    let ty = c.body("f.yaml", &body, "X").expect("typed");
    assert_ne!(ty, "Venue", "another service's venue is another type");
    assert!(!c.additions.contains_key("Venue"));
}

const TWINS: &str = r#"
components:
  schemas:
    AaaWifiWlan:
      type: object
      properties:
        mode: {type: string, enum: [ON, OFF]}
        level: {type: string, enum: [LOW, HIGH]}
    PskWifiWlan:
      type: object
      properties:
        mode: {type: string, enum: [ON, OFF]}
        level: {type: string, enum: [LOW, HIGH]}
    OpenWifiWlan:
      type: object
      properties:
        mode: {type: string, enum: [OFF, ON]}
        level: {type: string, enum: [LOW, HIGH]}
        extra: {type: string}
"#;

fn convert_all(c: &mut Converter<'_>, names: &[&str]) -> Vec<String> {
    let out = names
        .iter()
        .map(|n| {
            let body = Schema::from_yaml(&format!("$ref: '#/components/schemas/{n}'"));
            c.body("f.yaml", &body, "X").unwrap()
        })
        .collect();
    c.name_shared();
    out
}

#[test]
fn identical_inline_shapes_share_one_type_named_after_their_common_ending() {
    let docs = doc(TWINS);
    let mut c = Converter::new(&docs, BTreeSet::new(), BTreeMap::new());
    let got = convert_all(&mut c, &["AaaWifiWlan", "OpenWifiWlan"]);
    assert_eq!(got, ["AaaWifiWlan", "OpenWifiWlan"]);
    let fields = |name: &str| match &c.drafts[name].kind {
        Kind::Object(f) => f.iter().map(|f| f.ty.clone()).collect::<Vec<_>>(),
        other => panic!("not an object: {other:?}"),
    };
    // `level` has one shape in both: one type, named after `WifiWlanLevel`, the ending its
    // owners' names share; `mode` lists its values in another order: two types.
    assert_eq!(fields("AaaWifiWlan"), ["AaaWifiWlanMode", "WifiWlanLevel"]);
    assert_eq!(
        fields("OpenWifiWlan")[..2],
        ["OpenWifiWlanMode", "WifiWlanLevel"]
    );
    let enums = c
        .drafts
        .values()
        .filter(|d| matches!(d.kind, Kind::Enum(_)))
        .count();
    assert_eq!(enums, 3);
}

#[test]
fn identical_sibling_objects_share_one_type() {
    let docs = doc(TWINS);
    let mut c = Converter::new(&docs, BTreeSet::new(), BTreeMap::new());
    let got = convert_all(&mut c, &["AaaWifiWlan", "PskWifiWlan", "OpenWifiWlan"]);
    // `AaaWifiWlan` and `PskWifiWlan` differ only in their first word and have one shape: they
    // share `WifiWlan`; `OpenWifiWlan` has another field and keeps its own type.
    assert_eq!(got, ["AaaWifiWlan", "AaaWifiWlan", "OpenWifiWlan"]);
    assert!(c.drafts.contains_key("WifiWlan"), "{:?}", c.drafts.keys());
    assert!(!c.drafts.contains_key("AaaWifiWlan"));
    assert!(c.drafts.contains_key("OpenWifiWlan"));
}

#[test]
fn a_curated_root_keeps_its_name_and_names_later_copies() {
    let docs = doc(TWINS);
    let mut c = Converter::new(&docs, BTreeSet::new(), BTreeMap::new());
    let inline = Schema::from_yaml("{type: string, enum: [LOW, HIGH]}");
    assert_eq!(
        c.root("f.yaml", &inline, "Loudness").as_deref(),
        Some("Loudness")
    );
    assert_eq!(
        c.root("f.yaml", &inline, "Volume").as_deref(),
        Some("Volume"),
        "a name the curated spec gives is never merged away"
    );
    convert_all(&mut c, &["AaaWifiWlan"]);
    let Kind::Object(fields) = &c.drafts["AaaWifiWlan"].kind else {
        panic!("not an object")
    };
    assert_eq!(fields[1].ty, "Loudness");
}

#[test]
fn common_endings_start_words_and_span_two() {
    let names = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    assert_eq!(
        common_suffix(&names(&["AaaWifiWlanMode", "Hotspot20WifiWlanMode"])).as_deref(),
        Some("WifiWlanMode")
    );
    assert_eq!(
        common_suffix(&names(&[
            "Radio24GHzSettingsTxPower",
            "Radio5GHzSettingsTxPower"
        ]))
        .as_deref(),
        Some("SettingsTxPower")
    );
    assert_eq!(common_suffix(&names(&["PortMode", "LagMode"])), None);
    assert_eq!(
        common_suffix(&names(&["PortMode", "PortMode"])).as_deref(),
        Some("PortMode")
    );
    assert!(siblings("AaaWifiWlan", "PskWifiWlan"));
    assert!(!siblings("ApIotSettings", "ApUsbSettings"));
}

/// A large enumeration with repeated values keeps each value once, in order (the set that
/// remembers them makes this linear: 100,000 values with 50,000 repeats).
#[test]
fn large_enumerations_keep_each_value_once() {
    let values: Vec<String> = (0..100_000).map(|i| format!("V{}", i % 50_000)).collect();
    let text = format!("{{type: string, enum: [{}]}}", values.join(", "));
    let schema = Schema::from_yaml(&text);
    let got = string_enum(&schema).unwrap();
    assert_eq!(got.len(), 50_000);
    assert_eq!(got[..3], ["V0", "V1", "V2"]);
    assert_eq!(got[49_999], "V49999");
}

#[test]
fn an_inline_copy_met_before_a_curated_root_becomes_the_roots_type() {
    let docs = doc(TWINS);
    let mut c = Converter::new(&docs, BTreeSet::new(), BTreeMap::new());
    c.reserve("Loudness");
    let body = Schema::from_yaml("$ref: '#/components/schemas/AaaWifiWlan'");
    assert_eq!(c.body("f.yaml", &body, "X").as_deref(), Some("AaaWifiWlan"));
    let inline = Schema::from_yaml("{type: string, enum: [LOW, HIGH]}");
    assert_eq!(
        c.root("f.yaml", &inline, "Loudness").as_deref(),
        Some("Loudness")
    );
    c.name_shared();
    let Kind::Object(fields) = &c.drafts["AaaWifiWlan"].kind else {
        panic!("not an object")
    };
    assert_eq!(fields[1].ty, "Loudness");
    assert!(!c.drafts.contains_key("AaaWifiWlanLevel"));
}

#[test]
fn siblings_whose_shared_rest_is_taken_join_their_first_words() {
    let names = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    assert_eq!(
        joined_siblings(&names(&["DpskWifiWlan", "OpenWifiWlan", "DpskWifiWlan"])).as_deref(),
        Some("DpskOpenWifiWlan")
    );
    assert_eq!(
        joined_siblings(&names(&["DpskWifiWlan", "OpenWlanX"])),
        None
    );
    assert_eq!(
        joined_siblings(&names(&[
            "AWifiWlan",
            "BWifiWlan",
            "CWifiWlan",
            "DWifiWlan"
        ])),
        None,
        "four or more would make a long name"
    );
}

#[test]
fn a_shared_type_is_named_by_the_words_all_its_owners_have() {
    let names = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    assert_eq!(
        common_words(&names(&[
            "ProfileAclRuleViewAction",
            "AclRuleBoAction",
            "SwitchAclRuleViewAction",
        ]))
        .as_deref(),
        Some("AclRuleAction")
    );
    assert_eq!(
        common_words(&names(&[
            "UpgradeVenueFirmwareViewStatus",
            "UpgradeVenueStatus"
        ]))
        .as_deref(),
        Some("UpgradeVenueStatus"),
        "a shorter owner's name that the others contain is the common name"
    );
    assert_eq!(
        common_words(&names(&["ActivityStatus", "StepStatus"])),
        None,
        "one word in common says too little"
    );
    assert_eq!(
        common_words(&names(&["PortSpeedMode", "PortModeSpeed"])),
        None,
        "the common words must end as the names do"
    );
    assert_eq!(
        common_words(&names(&["OnboardNotAfterType", "OnboardNotBeforeType"])),
        None,
        "two names one word apart mean that word"
    );
}
