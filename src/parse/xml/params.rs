//! The content parameters of the element being read (media type, language, base,
//! `src`, base64) and the details made from them: a `Text` of the model when there is a
//! media type, feedparser's dictionary otherwise. The strings and [`TextMeta`]s the
//! details of a feed repeat are made once and shared ([`SharedStrs`], [`TextMetas`]).

use std::sync::Arc;

use super::builder::{Dict, jstr};
use super::dict::{Value, jv};
use crate::model::{Text, TextMeta};

#[derive(Default, Clone)]
pub(super) struct ContentParams {
    pub(super) ty: Option<Arc<str>>,
    pub(super) language: Option<Arc<str>>,
    pub(super) base: Arc<str>,
    pub(super) src: Option<String>,
    pub(super) base64: bool,
}

impl ContentParams {
    pub(super) fn ty_or<'a>(&'a self, default: &'a str) -> &'a str {
        self.ty.as_deref().unwrap_or(default)
    }

    /// The details of `value`: the model's `Text`, its details shared through `metas`,
    /// when there is a media type, else feedparser's dictionary.
    pub(super) fn detail(&self, metas: &mut TextMetas, value: String) -> Value {
        match metas.get(self) {
            Some(meta) => Value::Text(Box::new(Text::shared(meta, Arc::from(value)))),
            None => self.detail_dict(Value::String(value)),
        }
    }

    /// A detail whose value is shared with the plain key stored beside it. With a media
    /// type the details have the model's shape, and are built as its `Text` directly.
    pub(super) fn detail_shared(&self, metas: &mut TextMetas, value: Arc<str>) -> Value {
        match metas.get(self) {
            Some(meta) => Value::Text(Box::new(Text::shared(meta, value))),
            None => self.detail_dict(Value::Shared(value)),
        }
    }

    /// [`ContentParams::detail`] unboxed: the model's `Text` when there is a media type
    /// (a `content` item, which goes into a typed list as it is), else the dictionary.
    pub(super) fn detail_unboxed(
        &self,
        metas: &mut TextMetas,
        value: String,
    ) -> Result<Text, Value> {
        match metas.get(self) {
            Some(meta) => Ok(Text::shared(meta, Arc::from(value))),
            None => Err(self.detail_dict(Value::String(value))),
        }
    }

    /// The details without a media type: feedparser's dictionary, kept as it is (it does
    /// not have the model's shape).
    fn detail_dict(&self, value: Value) -> Value {
        let mut d = Dict::with_capacity(4);
        d.insert(
            "language".into(),
            self.language.as_deref().map_or(Value::Null, jstr),
        );
        d.insert("base".into(), jv!(&*self.base));
        if let Some(s) = &self.src {
            d.insert("src".into(), jv!(s));
        }
        d.insert("value".into(), value);
        Value::Object(d)
    }
}

/// `Arc` copies of the few strings every text detail of a feed repeats (its base, its
/// language, a handful of media types), made once: each detail holds one more reference
/// instead of copies of its own.
#[derive(Default)]
pub(super) struct SharedStrs(Vec<Arc<str>>);

impl SharedStrs {
    /// The most strings kept (a feed with endless distinct bases makes a copy for each).
    const MAX: usize = 8;

    pub(super) fn get(&mut self, s: &str) -> Arc<str> {
        if let Some(a) = self.0.iter().find(|a| ***a == *s) {
            return Arc::clone(a);
        }
        let a: Arc<str> = Arc::from(s);
        if self.0.len() == Self::MAX {
            self.0.remove(0);
        }
        self.0.push(Arc::clone(&a));
        a
    }
}

/// The [`TextMeta`]s of the texts made so far, so that texts with the same media type,
/// language and base share one (the last few kept, as [`SharedStrs`] does).
#[derive(Default)]
pub(super) struct TextMetas(Vec<Arc<TextMeta>>);

impl TextMetas {
    const MAX: usize = 8;

    /// The shared details for a text made under `cp`; `None` without a media type (such
    /// details are feedparser's dictionary, not a `Text`). A `src` is an element's own:
    /// its details are not shared.
    pub(super) fn get(&mut self, cp: &ContentParams) -> Option<Arc<TextMeta>> {
        let ty = cp.ty.as_ref()?;
        let same = |a: &Arc<str>, b: &Arc<str>| Arc::ptr_eq(a, b) || **a == **b;
        if cp.src.is_none()
            && let Some(m) = self.0.iter().find(|m| {
                same(&m.content_type, ty)
                    && same(&m.base, &cp.base)
                    && match (&m.language, &cp.language) {
                        (Some(a), Some(b)) => same(a, b),
                        (a, b) => a.is_none() && b.is_none(),
                    }
            })
        {
            return Some(Arc::clone(m));
        }
        let meta = Arc::new(TextMeta {
            content_type: Arc::clone(ty),
            language: cp.language.clone(),
            base: Arc::clone(&cp.base),
            src: cp.src.clone(),
        });
        if cp.src.is_none() {
            if self.0.len() == Self::MAX {
                self.0.remove(0);
            }
            self.0.push(Arc::clone(&meta));
        }
        Some(meta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_strings_are_bounded() {
        let mut shared = SharedStrs::default();
        let first = shared.get("a");
        for i in 0..100 {
            shared.get(&i.to_string());
        }
        assert_eq!(shared.0.len(), SharedStrs::MAX);
        assert!(!Arc::ptr_eq(&first, &shared.get("a")));
    }

    #[test]
    fn text_details_are_shared_bounded_and_never_with_a_src() {
        let mut metas = TextMetas::default();
        let cp = |ty: &str, base: &str| ContentParams {
            ty: Some(ty.into()),
            base: base.into(),
            ..ContentParams::default()
        };
        assert!(metas.get(&ContentParams::default()).is_none());
        let html = metas.get(&cp("text/html", "")).unwrap();
        // Equal parameters, even in strings of their own, give the same details.
        assert!(Arc::ptr_eq(
            &html,
            &metas.get(&cp("text/html", "")).unwrap()
        ));
        let lang = ContentParams {
            language: Some("en".into()),
            ..cp("text/html", "")
        };
        assert!(!Arc::ptr_eq(&html, &metas.get(&lang).unwrap()));
        let with_src = ContentParams {
            src: Some("http://e/c".into()),
            ..cp("text/html", "")
        };
        let a = metas.get(&with_src).unwrap();
        let b = metas.get(&with_src).unwrap();
        assert_eq!(a.src.as_deref(), Some("http://e/c"));
        assert!(!Arc::ptr_eq(&a, &b));
        for i in 0..100 {
            metas.get(&cp("text/html", &i.to_string()));
        }
        assert_eq!(metas.0.len(), TextMetas::MAX);
        assert!(!Arc::ptr_eq(
            &html,
            &metas.get(&cp("text/html", "")).unwrap()
        ));
    }
}
