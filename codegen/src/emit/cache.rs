//! A cache of formatted Rust, so that a regeneration formats only what changed.
//!
//! Formatting (syn's parse of the emitted tokens, then prettyplease) is most of the emitter's
//! time, and it is a pure function of the tokens. Each formatted piece (a whole file, or one
//! item group of an area file) is stored under a 128-bit hash of its tokens, in one cache file
//! per output file (`<dir>/<output path>.pieces`). A piece whose tokens hash as before is taken
//! from the cache; the others are formatted and the file is rewritten. Nothing else is cached:
//! the spec is loaded and validated and every token is made on every run, so the output is
//! byte for byte what an uncached run writes whatever the spec change, as long as the cache
//! belongs to the same generator build (the caller keys its directory by the generator binary).
//!
//! A missing, unreadable or malformed cache file is an empty cache; a cache that cannot be
//! written is skipped. The cache never changes what is generated, only how fast.

use proc_macro2::{TokenStream, TokenTree};
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

/// The cached pieces of one output file.
pub struct Pieces {
    file: Option<PathBuf>,
    old: HashMap<u128, String>,
    /// The pieces of this run, in order, and whether any was not in the cache.
    new: Vec<(u128, String)>,
    missed: bool,
}

impl Pieces {
    /// The cache of output file `output` (a `/`-separated relative path) under `dir`; with no
    /// directory, a cache that never hits and is never written.
    pub fn open(dir: Option<&Path>, output: &str) -> Pieces {
        let file = dir.map(|d| d.join(format!("{output}.pieces")));
        let old = file
            .as_deref()
            .and_then(|f| std::fs::read_to_string(f).ok())
            .map(|text| parse(&text))
            .unwrap_or_default();
        Pieces {
            file,
            old,
            new: Vec::new(),
            missed: false,
        }
    }

    /// The formatted text of `tokens`: from the cache, or made by `format`.
    pub fn get<E>(
        &mut self,
        tokens: TokenStream,
        format: impl FnOnce(TokenStream) -> Result<String, E>,
    ) -> Result<String, E> {
        if self.file.is_none() {
            return format(tokens);
        }
        let key = key(&tokens);
        let text = match self.old.remove(&key) {
            Some(text) => text,
            None => {
                self.missed = true;
                format(tokens)?
            }
        };
        self.new.push((key, text.clone()));
        Ok(text)
    }

    /// Rewrites the cache file when this run formatted something or left a piece unused.
    pub fn save(self) {
        let Some(file) = self.file else { return };
        if !self.missed && self.old.is_empty() {
            return;
        }
        let mut out = String::new();
        for (key, text) in &self.new {
            out.push_str(&format!("{key:032x} {}\n", text.len()));
            out.push_str(text);
        }
        if let Some(parent) = file.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        // Written aside and renamed, so a reader never sees half a file.
        let temp = file.with_extension(format!("pieces.{}", std::process::id()));
        if std::fs::write(&temp, out).is_ok() && std::fs::rename(&temp, &file).is_err() {
            let _ = std::fs::remove_file(&temp);
        }
    }
}

/// The entries of a cache file: `<hash> <length>\n<text>` one after the other. A malformed
/// file gives the entries before the fault.
fn parse(mut text: &str) -> HashMap<u128, String> {
    let mut out = HashMap::new();
    while let Some((head, rest)) = text.split_once('\n') {
        let Some((key, len)) = head.split_once(' ') else {
            break;
        };
        let (Ok(key), Ok(len)) = (u128::from_str_radix(key, 16), len.parse::<usize>()) else {
            break;
        };
        let Some(body) = rest.get(..len) else { break };
        out.insert(key, body.to_owned());
        text = &rest[len..];
    }
    out
}

/// A 128-bit hash of a token stream: its token trees (delimiters, identifiers, punctuation
/// with spacing, literals as written), spans aside.
fn key(tokens: &TokenStream) -> u128 {
    let mut a = DefaultHasher::new();
    let mut b = DefaultHasher::new();
    b.write_u8(0x5a);
    feed(tokens, &mut a, &mut b);
    (u128::from(a.finish()) << 64) | u128::from(b.finish())
}

/// A 128-bit hash of bytes (two SipHash states, one seeded apart): for callers' caches, here
/// because this crate is built optimised in the dev profile and their code may not be.
pub fn hash128(parts: &[&[u8]]) -> u128 {
    let mut a = DefaultHasher::new();
    let mut b = DefaultHasher::new();
    b.write_u8(0x5a);
    for part in parts {
        part.hash(&mut a);
        part.hash(&mut b);
    }
    (u128::from(a.finish()) << 64) | u128::from(b.finish())
}

fn feed(tokens: &TokenStream, a: &mut DefaultHasher, b: &mut DefaultHasher) {
    for tree in tokens.clone() {
        match tree {
            TokenTree::Group(g) => {
                let d = g.delimiter() as u8;
                a.write_u8(1 + d);
                b.write_u8(1 + d);
                feed(&g.stream(), a, b);
                a.write_u8(0);
                b.write_u8(0);
            }
            TokenTree::Ident(i) => {
                let s = i.to_string();
                a.write_u8(10);
                b.write_u8(10);
                s.hash(a);
                s.hash(b);
            }
            TokenTree::Punct(p) => {
                let c = p.as_char() as u32;
                let joint = p.spacing() == proc_macro2::Spacing::Joint;
                a.write_u32(c);
                b.write_u32(c);
                a.write_u8(20 + u8::from(joint));
                b.write_u8(20 + u8::from(joint));
            }
            TokenTree::Literal(l) => {
                let s = l.to_string();
                a.write_u8(30);
                b.write_u8(30);
                s.hash(a);
                s.hash(b);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    #[test]
    fn a_piece_is_formatted_once_and_then_read_back() {
        let dir = std::env::temp_dir().join(format!("ruckus-pieces-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut formatted = 0;
        let mut format = |t: TokenStream| -> Result<String, ()> {
            formatted += 1;
            Ok(format!("{t}\n"))
        };
        let mut pieces = Pieces::open(Some(&dir), "c/src/a.rs");
        let first = pieces
            .get(
                quote!(
                    struct A;
                ),
                &mut format,
            )
            .unwrap();
        pieces
            .get(
                quote!(
                    struct B;
                ),
                &mut format,
            )
            .unwrap();
        pieces.save();
        let mut pieces = Pieces::open(Some(&dir), "c/src/a.rs");
        assert_eq!(
            pieces
                .get(
                    quote!(
                        struct A;
                    ),
                    &mut format
                )
                .unwrap(),
            first
        );
        pieces
            .get(
                quote!(
                    struct C;
                ),
                &mut format,
            )
            .unwrap();
        pieces.save();
        let _ = std::fs::remove_dir_all(&dir);
        // A, B, then only C.
        assert_eq!(formatted, 3);
    }

    #[test]
    fn different_tokens_have_different_keys() {
        assert_ne!(key(&quote!(a + b)), key(&quote!(a - b)));
        assert_ne!(key(&quote!((a) b)), key(&quote!((a b))));
        assert_ne!(key(&quote!("x")), key(&quote!(x)));
        assert_eq!(
            key(&quote!(
                fn f() {}
            )),
            key(&quote!(
                fn f() {}
            ))
        );
    }
}
