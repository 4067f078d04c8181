//! One semantic change between two specs, its class, and the version bump a set of changes needs.

/// What a change means for code using the generated crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// Code that compiled (or a request that worked) may no longer.
    Breaking,
    /// Still works, now warns or has a removal date.
    Deprecation,
    /// Additions and facts that change nothing for callers.
    Compatible,
}

impl Class {
    pub const ALL: [Class; 3] = [Class::Breaking, Class::Deprecation, Class::Compatible];

    pub fn as_str(self) -> &'static str {
        match self {
            Class::Breaking => "breaking",
            Class::Deprecation => "deprecation",
            Class::Compatible => "compatible",
        }
    }
}

/// One change, located by API, area and subject (`operation `get_item``, `type `Item``).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Change {
    pub api: String,
    /// Empty for API-wide settings.
    pub area: String,
    pub subject: String,
    /// A stable code (`field_removed`), for tools and tests.
    pub kind: &'static str,
    pub class: Class,
    /// What changed, for a reviewer.
    pub detail: String,
}

impl Change {
    /// Whether the change adds something callers can use (a minor bump from 1.0 on).
    pub fn adds(&self) -> bool {
        self.class == Class::Compatible
            && (self.kind.ends_with("_added") || self.kind == "operation_restored")
    }
}

/// The semver component a set of changes needs bumped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Bump {
    None,
    Patch,
    Minor,
    Major,
}

impl Bump {
    pub fn as_str(self) -> &'static str {
        match self {
            Bump::None => "none",
            Bump::Patch => "patch",
            Bump::Minor => "minor",
            Bump::Major => "major",
        }
    }
}

/// `major.minor.patch` of a version (a pre-release or build suffix is ignored).
pub fn parse_version(v: &str) -> Option<(u64, u64, u64)> {
    let core = v.trim().split(['-', '+']).next()?;
    let mut parts = core.split('.').map(|p| p.parse::<u64>().ok());
    let version = (parts.next()??, parts.next()??, parts.next()??);
    parts.next().is_none().then_some(version)
}

/// The bump `changes` need from `version`: before 1.0 a breaking change bumps the minor version
/// and anything else the patch version (Cargo treats 0.x minors as incompatible); from 1.0 a
/// breaking change bumps the major version, additions and deprecations the minor version, and
/// anything else the patch version.
pub fn bump(version: (u64, u64, u64), changes: &[Change]) -> Bump {
    let breaking = changes.iter().any(|c| c.class == Class::Breaking);
    let minorish = changes
        .iter()
        .any(|c| c.adds() || c.class == Class::Deprecation);
    match (version.0, breaking, minorish, changes.is_empty()) {
        (_, _, _, true) => Bump::None,
        (0, true, _, _) => Bump::Minor,
        (0, false, _, _) => Bump::Patch,
        (_, true, _, _) => Bump::Major,
        (_, false, true, _) => Bump::Minor,
        (_, false, false, _) => Bump::Patch,
    }
}

/// `version` with `bump` applied.
pub fn next_version((major, minor, patch): (u64, u64, u64), bump: Bump) -> (u64, u64, u64) {
    match bump {
        Bump::None => (major, minor, patch),
        Bump::Patch => (major, minor, patch + 1),
        Bump::Minor => (major, minor + 1, 0),
        Bump::Major => (major + 1, 0, 0),
    }
}

/// The rules [`bump`] applied, in one sentence for the report.
pub fn rules(version: (u64, u64, u64)) -> &'static str {
    if version.0 == 0 {
        "Pre-1.0 rules (Cargo treats 0.x minor versions as incompatible): a breaking change bumps \
         the minor version, any other change the patch version."
    } else {
        "Semver from 1.0: a breaking change bumps the major version, additions and deprecations \
         the minor version, anything else the patch version."
    }
}

pub fn show((major, minor, patch): (u64, u64, u64)) -> String {
    format!("{major}.{minor}.{patch}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(kind: &'static str, class: Class) -> Change {
        Change {
            api: "a".into(),
            area: String::new(),
            subject: String::new(),
            kind,
            class,
            detail: String::new(),
        }
    }

    #[test]
    fn bumps_follow_the_pre_and_post_1_0_rules() {
        let breaking = [change("field_removed", Class::Breaking)];
        let added = [change("field_added", Class::Compatible)];
        let deprecated = [change("operation_deprecated", Class::Deprecation)];
        let fact = [change("provenance_changed", Class::Compatible)];
        assert_eq!(bump((0, 3, 1), &[]), Bump::None);
        assert_eq!(bump((0, 3, 1), &breaking), Bump::Minor);
        assert_eq!(bump((0, 3, 1), &added), Bump::Patch);
        assert_eq!(bump((0, 3, 1), &deprecated), Bump::Patch);
        assert_eq!(bump((1, 2, 3), &breaking), Bump::Major);
        assert_eq!(bump((1, 2, 3), &added), Bump::Minor);
        assert_eq!(bump((1, 2, 3), &deprecated), Bump::Minor);
        assert_eq!(bump((1, 2, 3), &fact), Bump::Patch);
        assert_eq!(next_version((0, 3, 1), Bump::Minor), (0, 4, 0));
        assert_eq!(next_version((1, 2, 3), Bump::Major), (2, 0, 0));
        assert_eq!(parse_version("1.2.3-beta.1"), Some((1, 2, 3)));
        assert_eq!(parse_version("1.2"), None);
    }
}
