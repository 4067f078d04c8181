//! Walking through paginated list and query operations.
//!
//! Generated code pages with [`Request::pages`](crate::internal::Request::pages) and a [`Paging`]; both are
//! built on [`pages`], which turns a "fetch page number n" function into a stream of pages
//! that ends by itself: after an empty page, after a page shorter than its
//! page size (when no total is stated), after a page that says it is the last, once the stated total
//! number of items has been yielded, when the service repeats the previous
//! page, or after an error.
//!
//! ```
//! use futures_util::StreamExt;
//! use ruckus_one_runtime::{Error, internal::paging::{Page, fingerprint_of, pages}};
//!
//! #[derive(serde::Serialize)]
//! struct Users { page: u32, data: Vec<String> }
//!
//! impl Page for Users {
//!     fn item_count(&self) -> usize { self.data.len() }
//!     fn page_size(&self) -> Option<usize> { Some(2) }
//!     fn fingerprint(&self) -> u64 { fingerprint_of(&self.data) }
//! }
//!
//! // Stands in for a generated list call taking a page number.
//! async fn list_users(page: u32) -> Result<Users, Error> {
//!     let data = match page { 1 => vec!["a".into(), "b".into()], 2 => vec!["c".into()], _ => vec![] };
//!     Ok(Users { page, data })
//! }
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Error> {
//! let mut stream = std::pin::pin!(pages(1, list_users));
//! let mut names = Vec::new();
//! while let Some(page) = stream.next().await {
//!     names.extend(page?.data);
//! }
//! assert_eq!(names, ["a", "b", "c"]); // page 2 is short: page 3 is never requested
//! # Ok(()) }
//! ```

mod json_page;
mod request_pages;
mod scan;
mod stream;
mod style;

pub use stream::{Page, Pages, fingerprint_of, pages};
pub use style::{PageStyle, Paging};

#[cfg(test)]
mod tests;
