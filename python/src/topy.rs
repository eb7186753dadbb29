//! The JSON contract's object built as Python objects: a serde `Serializer` whose output
//! is a Python value instead of text.
//!
//! The result is converted through the contract's `Serialize` impl (the same one the
//! command line's `--json` writes), so the Python result holds exactly the keys the JSON
//! contract holds, and the binding depends on the contract, not on the model's internals.
//! A general serde-to-Python crate (pythonize) builds plain values; feedparser's result
//! needs a few things it cannot say, which is why this one is written here:
//!
//! - every object is a `FeedParserDict` (the package's dict subclass with feedparser's
//!   aliases and attribute access), but for the top-level `headers` and `namespaces`,
//!   which feedparser keeps as plain dicts;
//! - a `*_parsed` key's 9-integer array is a `time.struct_time`, a `*_parsed` number
//!   (a Podlove chapter's start) a `datetime.timedelta`, GeoRSS `coordinates` tuples;
//! - map keys are interned once per conversion, and a string the model shares between
//!   two fields (`summary` and `summary_detail.value` are one `Arc<str>`; a detail's
//!   type, language and base are shared by every detail they apply to) becomes one
//!   Python string, not one per field, as in feedparser's own result.

use std::collections::HashMap;
use std::fmt;

use feed_decoder::model::Entry;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple, PyType};
use serde::ser::{self, Serialize};

/// A Python error carried through serde.
#[derive(Debug)]
pub(crate) struct Error(pub(crate) PyErr);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(pyo3::exceptions::PyValueError::new_err(msg.to_string()))
    }
}

impl From<PyErr> for Error {
    fn from(e: PyErr) -> Self {
        Error(e)
    }
}

type Result<T> = std::result::Result<T, Error>;

/// Slots of the shared-string cache (a power of two).
const SHARED: usize = 512;

/// Entries converted between two frees of the converted ones (see `Builder::entries`).
pub(crate) const ENTRY_BATCH: usize = 64;

/// Batches freed between two returns of the freed memory to the system while a large
/// result is converted (smaller results give it back only once a batch of entries has
/// been converted since the last time: see `Builder::entries`).
const COLLECT_EVERY: usize = 16;

/// Entries from which a result's memory is given back to the system while converting.
const LARGE_RESULT: usize = ENTRY_BATCH * COLLECT_EVERY;

/// Strings of at most this many bytes are looked up by their text.
const SHORT_LEN: usize = 24;

/// Slots of the short-string cache (a power of two).
const SHORT_SLOTS: usize = 1024;

/// A quick hash of a short string (FxHash's mixing, eight bytes at a time).
fn short_hash(v: &[u8]) -> usize {
    let mut h: u64 = v.len() as u64;
    for chunk in v.chunks(8) {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    (h >> 32) as usize
}

/// Slots of the key cache (a power of two).
const KEY_SLOTS: usize = 1024;

/// Keys of at most this many bytes are kept in the key cache's slots (longer ones are
/// looked up by their text every time).
const KEY_LEN: usize = 32;

/// feedparser's aliases and computed keys, with the keys each reads
/// (`feed_decoder/util.py` has the same table; a test compares them). A dictionary that
/// holds a key of one of these names *and* one it reads must resolve the alias first,
/// which `FeedParserDict`'s fast lookup does not: it gets the slower class that does.
pub(crate) const SHADOWING: &[(&str, &[&str])] = &[
    ("channel", &["feed"]),
    ("items", &["entries"]),
    ("guid", &["id"]),
    ("date", &["updated"]),
    ("date_parsed", &["updated_parsed"]),
    ("description", &["summary", "subtitle"]),
    ("description_detail", &["summary_detail", "subtitle_detail"]),
    ("url", &["href"]),
    ("modified", &["updated"]),
    ("modified_parsed", &["updated_parsed"]),
    ("issued", &["published"]),
    ("issued_parsed", &["published_parsed"]),
    ("copyright", &["rights"]),
    ("copyright_detail", &["rights_detail"]),
    ("tagline", &["subtitle"]),
    ("tagline_detail", &["subtitle_detail"]),
    ("category", &["tags"]),
    ("enclosures", &["links"]),
    ("license", &["links"]),
];

/// The keys an alias-named key reads, when `key` is one.
fn shadowed(key: &str) -> Option<&'static [&'static str]> {
    SHADOWING.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

/// A slot of the short-string cache: the text (zero-padded), its length, the string.
type ShortSlot = Option<([u8; SHORT_LEN], usize, Py<PyString>)>;

/// A slot of the key cache: the key's address, its text and what is known of it.
type KeySlot = Option<(usize, usize, [u8; KEY_LEN], KeyInfo)>;

/// A map key as the conversion needs it, worked out once per distinct key.
struct KeyInfo {
    object: Py<PyString>,
    role: Role,
    /// The keys an alias-named key reads.
    shadows: Option<&'static [&'static str]>,
}

/// A key read: its Python string, its role, the keys it reads if it is an alias.
type KeyRead<'py> = (Bound<'py, PyString>, Role, Option<&'static [&'static str]>);

/// What a key says of its value's Python type.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Plain,
    /// `*_parsed`.
    Parsed,
    /// `coordinates`.
    Coordinates,
    /// `headers`, `namespaces` (plain dicts at the top level).
    PlainDict,
    /// `feed`, `entries` (strings shared at the top level).
    Model,
}

impl Role {
    fn of(key: &str) -> Role {
        match key {
            "headers" | "namespaces" => Role::PlainDict,
            "feed" | "entries" => Role::Model,
            "coordinates" => Role::Coordinates,
            k if k.ends_with("_parsed") => Role::Parsed,
            _ => Role::Plain,
        }
    }
}

/// Most distinct keys kept from one conversion to the next (a feed of a million
/// distinct element names must not grow the cache for good).
const MAX_KEPT_KEYS: usize = 4096;

/// What one conversion leaves for the next on the same thread: the interned keys, the
/// short strings and the classes. (Everything here is immutable Python objects.)
#[derive(Default)]
struct Caches {
    /// Map keys by their text.
    keys: HashMap<Box<str>, KeyInfo>,
    /// The same by the key's address (most keys are the model's `&'static str`s): a
    /// hit compares the text too, so a key written from a temporary is never mistaken.
    recent_keys: Vec<KeySlot>,
    /// Short strings by their text (`alternate`, `text/html`, `en`, a tag's term …): one
    /// Python string for all their occurrences, as the text is compared on a hit.
    short: Vec<ShortSlot>,
    struct_time: Option<Py<PyAny>>,
    timedelta: Option<Py<PyAny>>,
    /// The class of dictionaries holding a key under an alias's name.
    shadowing_type: Option<Py<PyAny>>,
    /// `feed_decoder.util._register_attribute`: gives a new key its attribute.
    register: Option<Py<PyAny>>,
}

thread_local! {
    static CACHES: std::cell::RefCell<Caches> = std::cell::RefCell::new(Caches::default());
}

/// What is needed to build the objects, and the caches of one conversion.
pub(crate) struct Builder<'py> {
    py: Python<'py>,
    /// The package's `FeedParserDict` class. Instances are made without running its
    /// `__init__` (which registers the keys of dictionaries built in Python; keys met
    /// here are registered once, by `key_info`).
    dict_type: Bound<'py, PyType>,
    struct_time: Bound<'py, PyType>,
    /// `time.struct_time.n_fields` (nine in the sequence, then `tm_zone`, `tm_gmtoff`).
    struct_time_fields: isize,
    /// Taken from the thread's store for the conversion, given back when it ends.
    caches: Caches,
    /// Strings of the model by address and length. Only used under `feed` and
    /// `entries`, where every string is borrowed from the result being converted (which
    /// lives and does not change during the conversion), so the same address and length
    /// are the same text; the top-level keys around them serialize temporaries. Emptied
    /// when the conversion ends (its strings may be large).
    shared: Vec<Option<(usize, usize, Bound<'py, PyString>)>>,
    /// The slots of `shared` in use.
    shared_used: Vec<usize>,
    share: bool,
}

impl Drop for Builder<'_> {
    fn drop(&mut self) {
        let caches = std::mem::take(&mut self.caches);
        // A thread being torn down has no store left: the caches are dropped.
        let _ = CACHES.try_with(|c| *c.borrow_mut() = caches);
    }
}

impl<'py> Builder<'py> {
    /// A builder whose objects are instances of `dict_type` (a `dict` subclass).
    pub(crate) fn new(py: Python<'py>, dict_type: Bound<'py, PyAny>) -> PyResult<Self> {
        let mut caches = CACHES
            .try_with(|c| std::mem::take(&mut *c.borrow_mut()))
            .unwrap_or_default();
        if caches.recent_keys.is_empty() {
            caches.recent_keys = (0..KEY_SLOTS).map(|_| None).collect();
            caches.short = (0..SHORT_SLOTS).map(|_| None).collect();
        }
        let struct_time = match &caches.struct_time {
            Some(t) => t.bind(py).clone(),
            None => {
                let t = py.import("time")?.getattr("struct_time")?;
                caches.struct_time = Some(t.clone().unbind());
                t
            }
        };
        let struct_time_fields: isize = struct_time.getattr("n_fields")?.extract()?;
        if struct_time_fields < 9 {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "time.struct_time has fewer than nine fields",
            ));
        }
        let struct_time = struct_time.cast_into::<PyType>()?;
        Ok(Builder {
            py,
            dict_type: dict_type.cast_into::<PyType>()?,
            struct_time,
            struct_time_fields,
            caches,
            shared: Vec::new(),
            shared_used: Vec::new(),
            share: false,
        })
    }

    /// `datetime.timedelta`, imported when first needed (few feeds have chapters, and
    /// the module costs half a megabyte), then kept with the caches.
    fn timedelta(&mut self) -> PyResult<Bound<'py, PyAny>> {
        if let Some(t) = &self.caches.timedelta {
            return Ok(t.bind(self.py).clone());
        }
        let t = self.py.import("datetime")?.getattr("timedelta")?;
        self.caches.timedelta = Some(t.clone().unbind());
        Ok(t)
    }

    /// Converts a value whose top level is the contract's object.
    pub(crate) fn top<T: Serialize + ?Sized>(&mut self, value: &T) -> PyResult<Bound<'py, PyAny>> {
        let out = value.serialize(Ser {
            b: self,
            kind: Kind::Top,
        });
        self.share = false;
        self.forget_shared();
        out.map_err(|e| e.0)
    }

    /// Converts a result's entries as the contract's `entries` list, freeing them as it
    /// goes: every [`ENTRY_BATCH`] entries, the strings shared so far are forgotten (a
    /// freed string's address may be given to a new one) and the converted entries
    /// dropped. For a result of [`LARGE_RESULT`] entries or more, what was freed is given
    /// back to the system first (the rest of the result, which the caller has dropped),
    /// then every [`COLLECT_EVERY`] batches, and at the end. After smaller results it is
    /// given back once [`ENTRY_BATCH`] entries have been converted since the last time:
    /// trimming walks the whole heap, and after every feed it made a parse of a small
    /// feed 2.4 times as long in a program holding 400 MB of its own (2.2 against 0.9
    /// ms), while the chunks a small result frees are reused by the next parses anyway.
    pub(crate) fn entries(&mut self, entries: Vec<Entry>) -> PyResult<Bound<'py, PyList>> {
        let large = entries.len() >= LARGE_RESULT;
        if large {
            crate::fast::release_freed_memory();
        }
        let out = PyList::empty(self.py);
        let mut done: Vec<Entry> = Vec::with_capacity(ENTRY_BATCH.min(entries.len()));
        let mut freed = 0usize;
        for entry in entries {
            self.share = true;
            let v = entry.serialize(Ser {
                b: self,
                kind: Kind::Plain,
            });
            self.share = false;
            out.append(v.map_err(|e| e.0)?)?;
            done.push(entry);
            if done.len() == ENTRY_BATCH {
                self.forget_shared();
                done.clear();
                freed += 1;
                if large && freed.is_multiple_of(COLLECT_EVERY) {
                    crate::fast::release_freed_memory();
                }
            }
        }
        self.forget_shared();
        drop(done);
        if large || crate::fast::release_due(out.len()) {
            crate::fast::release_freed_memory();
        }
        Ok(out)
    }

    /// Empties the cache of shared strings.
    fn forget_shared(&mut self) {
        for slot in self.shared_used.drain(..) {
            self.shared[slot] = None;
        }
    }

    /// Converts any value (objects as `FeedParserDict`s).
    pub(crate) fn value<T: Serialize + ?Sized>(
        &mut self,
        value: &T,
    ) -> PyResult<Bound<'py, PyAny>> {
        value
            .serialize(Ser {
                b: self,
                kind: Kind::Plain,
            })
            .map_err(|e| e.0)
    }

    fn new_dict(&self, plain: bool) -> Result<Bound<'py, PyDict>> {
        if plain {
            return Ok(PyDict::new(self.py));
        }
        Ok(crate::fast::new_dict(&self.dict_type)?)
    }

    fn string(&mut self, v: &str) -> Bound<'py, PyString> {
        if v.len() <= SHORT_LEN {
            let mut text = [0u8; SHORT_LEN];
            text[..v.len()].copy_from_slice(v.as_bytes());
            let slot = short_hash(v.as_bytes()) & (SHORT_SLOTS - 1);
            if let Some((t, n, s)) = &self.caches.short[slot]
                && *n == v.len()
                && *t == text
            {
                return s.bind(self.py).clone();
            }
            let s = PyString::new(self.py, v);
            self.caches.short[slot] = Some((text, v.len(), s.clone().unbind()));
            return s;
        }
        if !self.share {
            return PyString::new(self.py, v);
        }
        if self.shared.is_empty() {
            self.shared = vec![None; SHARED];
        }
        let addr = v.as_ptr() as usize;
        let slot = ((addr >> 4) ^ (addr >> 13) ^ v.len()) & (SHARED - 1);
        if let Some((a, n, s)) = &self.shared[slot]
            && *a == addr
            && *n == v.len()
        {
            return s.clone();
        }
        let s = PyString::new(self.py, v);
        if self.shared[slot].is_none() {
            self.shared_used.push(slot);
        }
        self.shared[slot] = Some((addr, v.len(), s.clone()));
        s
    }

    /// A map key's Python string (interned) and what it says of its value.
    fn key_info(&mut self, key: &str) -> Result<KeyRead<'py>> {
        let addr = key.as_ptr() as usize;
        let slot = (addr.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40 ^ key.len()) & (KEY_SLOTS - 1);
        let short = key.len() <= KEY_LEN;
        let caches = &mut self.caches;
        if short
            && let Some((a, n, t, info)) = &caches.recent_keys[slot]
            && *a == addr
            && *n == key.len()
            && t[..*n] == *key.as_bytes()
        {
            return Ok((info.object.bind(self.py).clone(), info.role, info.shadows));
        }
        let py = self.py;
        let copy = |i: &KeyInfo| KeyInfo {
            object: i.object.clone_ref(py),
            role: i.role,
            shadows: i.shadows,
        };
        let info = match caches.keys.get(key) {
            Some(info) => copy(info),
            None => {
                let object = PyString::intern(py, key);
                // Attribute access to the key (`entry.itunes_duration`): once per key.
                let register = match &caches.register {
                    Some(r) => r.bind(py).clone(),
                    None => {
                        let r = py
                            .import("feed_decoder.util")?
                            .getattr("_register_attribute")?;
                        caches.register = Some(r.clone().unbind());
                        r
                    }
                };
                register.call1((&object,))?;
                let info = KeyInfo {
                    object: object.unbind(),
                    role: Role::of(key),
                    shadows: shadowed(key),
                };
                if caches.keys.len() < MAX_KEPT_KEYS {
                    caches.keys.insert(key.into(), copy(&info));
                }
                info
            }
        };
        let out = (info.object.bind(self.py).clone(), info.role, info.shadows);
        if short {
            let mut text = [0u8; KEY_LEN];
            text[..key.len()].copy_from_slice(key.as_bytes());
            caches.recent_keys[slot] = Some((addr, key.len(), text, info));
        }
        Ok(out)
    }

    /// The class for a dictionary that holds a key under an alias's name.
    fn shadowing_type(&mut self) -> Result<Bound<'py, PyAny>> {
        if let Some(t) = &self.caches.shadowing_type {
            return Ok(t.bind(self.py).clone());
        }
        let t = self
            .py
            .import("feed_decoder.util")?
            .getattr("_ShadowingFeedParserDict")?;
        self.caches.shadowing_type = Some(t.clone().unbind());
        Ok(t)
    }
}

/// Where a value sits, as far as its Python type depends on it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// The contract's top-level object.
    Top,
    /// Any other value.
    Plain,
    /// Under a top-level key kept as a plain `dict` (`headers`, `namespaces`).
    PlainDict,
    /// Under a `*_parsed` key: a date (9 integers) or a duration (a number).
    Parsed,
    /// Under `coordinates` (GeoRSS): tuples of numbers.
    Coordinates,
}

impl Kind {
    /// The kind of the value under a key of this role, in a map of this kind.
    fn of_entry(self, role: Role) -> Kind {
        match (self, role) {
            (Kind::PlainDict, _) => Kind::Plain,
            (Kind::Top, Role::PlainDict) => Kind::PlainDict,
            (_, Role::Coordinates) => Kind::Coordinates,
            (_, Role::Parsed) => Kind::Parsed,
            _ => Kind::Plain,
        }
    }
}

struct Ser<'a, 'py> {
    b: &'a mut Builder<'py>,
    kind: Kind,
}

impl<'a, 'py> Ser<'a, 'py> {
    fn number(self, v: Bound<'py, PyAny>) -> Result<Bound<'py, PyAny>> {
        if self.kind == Kind::Parsed {
            // A duration in seconds (Podlove chapter `start_parsed`).
            return Ok(self.b.timedelta()?.call((0, v), None)?);
        }
        Ok(v)
    }
}

macro_rules! ints {
    ($($f:ident($t:ty)),*) => {$(
        fn $f(self, v: $t) -> Result<Self::Ok> {
            let v = v.into_pyobject(self.b.py).map_err(|e| Error(e.into()))?.into_any();
            self.number(v)
        }
    )*};
}

impl<'a, 'py> ser::Serializer for Ser<'a, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    type SerializeSeq = SeqSer<'a, 'py>;
    type SerializeTuple = SeqSer<'a, 'py>;
    type SerializeTupleStruct = SeqSer<'a, 'py>;
    type SerializeTupleVariant = VariantSer<'py, SeqSer<'a, 'py>>;
    type SerializeMap = MapSer<'a, 'py>;
    type SerializeStruct = MapSer<'a, 'py>;
    type SerializeStructVariant = VariantSer<'py, MapSer<'a, 'py>>;

    fn serialize_bool(self, v: bool) -> Result<Self::Ok> {
        Ok(pyo3::types::PyBool::new(self.b.py, v).to_owned().into_any())
    }

    ints!(
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128)
    );

    fn serialize_f32(self, v: f32) -> Result<Self::Ok> {
        self.serialize_f64(f64::from(v))
    }

    fn serialize_f64(self, v: f64) -> Result<Self::Ok> {
        let v = PyFloat::new(self.b.py, v).into_any();
        self.number(v)
    }

    fn serialize_char(self, v: char) -> Result<Self::Ok> {
        let mut buf = [0u8; 4];
        Ok(PyString::new(self.b.py, v.encode_utf8(&mut buf)).into_any())
    }

    fn serialize_str(self, v: &str) -> Result<Self::Ok> {
        Ok(self.b.string(v).into_any())
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<Self::Ok> {
        Ok(PyBytes::new(self.b.py, v).into_any())
    }

    fn serialize_none(self) -> Result<Self::Ok> {
        Ok(self.b.py.None().into_bound(self.b.py))
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Self::Ok> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<Self::Ok> {
        self.serialize_none()
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<Self::Ok> {
        self.serialize_none()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Self::Ok> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Self::Ok> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Self::Ok> {
        let d = self.b.new_dict(false)?;
        let v = value.serialize(Ser {
            b: &mut *self.b,
            kind: Kind::Plain,
        })?;
        d.set_item(variant, v)?;
        Ok(d.into_any())
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq> {
        Ok(SeqSer {
            items: Vec::with_capacity(len.unwrap_or(0).min(4096)),
            b: self.b,
            kind: self.kind,
        })
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        let outer = self.b.new_dict(false)?;
        Ok(VariantSer {
            outer,
            variant,
            inner: SeqSer {
                items: Vec::with_capacity(len.min(4096)),
                b: self.b,
                kind: Kind::Plain,
            },
        })
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        let dict = self.b.new_dict(self.kind == Kind::PlainDict)?;
        Ok(MapSer {
            dict,
            b: self.b,
            kind: self.kind,
            pending: None,
            shadowed: Vec::new(),
            containers: false,
            coordinates: false,
        })
    }

    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Self::SerializeStruct> {
        self.serialize_map(Some(len))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        let outer = self.b.new_dict(false)?;
        let dict = self.b.new_dict(false)?;
        Ok(VariantSer {
            outer,
            variant,
            inner: MapSer {
                dict,
                b: self.b,
                kind: Kind::Plain,
                pending: None,
                shadowed: Vec::new(),
                containers: false,
                coordinates: false,
            },
        })
    }
}

/// Whether `v` is a value the cyclic collector never tracks (a string, an integer, a
/// float, a boolean or `None`).
fn is_atomic(v: &Bound<'_, PyAny>) -> bool {
    v.is_exact_instance_of::<PyString>()
        || v.is_none()
        || v.is_exact_instance_of::<PyInt>()
        || v.is_exact_instance_of::<PyFloat>()
        || v.is_exact_instance_of::<pyo3::types::PyBool>()
}

/// A sequence: a `list`, or a `struct_time` / tuple by its key.
pub(crate) struct SeqSer<'a, 'py> {
    items: Vec<Bound<'py, PyAny>>,
    b: &'a mut Builder<'py>,
    kind: Kind,
}

impl<'py> SeqSer<'_, 'py> {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let kind = match self.kind {
            Kind::Coordinates => Kind::Coordinates,
            _ => Kind::Plain,
        };
        let v = value.serialize(Ser {
            b: &mut *self.b,
            kind,
        })?;
        self.items.push(v);
        Ok(())
    }

    fn finish(self) -> Result<Bound<'py, PyAny>> {
        let py = self.b.py;
        let exact_int = |v: &Bound<'py, PyAny>| v.is_exact_instance_of::<PyInt>();
        let number = |v: &Bound<'py, PyAny>| {
            v.is_exact_instance_of::<PyInt>() || v.is_instance_of::<PyFloat>()
        };
        match self.kind {
            Kind::Parsed if self.items.len() == 9 && self.items.iter().all(exact_int) => {
                let mut fields = [0i64; 9];
                for (slot, v) in fields.iter_mut().zip(&self.items) {
                    *slot = v.extract()?;
                }
                Ok(crate::fast::struct_time(
                    &self.b.struct_time,
                    self.b.struct_time_fields,
                    &fields,
                )?)
            }
            Kind::Coordinates if !self.items.is_empty() && self.items.iter().all(number) => {
                Ok(PyTuple::new(py, self.items)?.into_any())
            }
            _ => Ok(PyList::new(py, self.items)?.into_any()),
        }
    }
}

impl<'py> ser::SerializeSeq for SeqSer<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }

    fn end(self) -> Result<Self::Ok> {
        self.finish()
    }
}

impl<'py> ser::SerializeTuple for SeqSer<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }

    fn end(self) -> Result<Self::Ok> {
        self.finish()
    }
}

impl<'py> ser::SerializeTupleStruct for SeqSer<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }

    fn end(self) -> Result<Self::Ok> {
        self.finish()
    }
}

/// An object: a `FeedParserDict` (or a plain `dict` where feedparser has one).
pub(crate) struct MapSer<'a, 'py> {
    dict: Bound<'py, PyDict>,
    b: &'a mut Builder<'py>,
    kind: Kind,
    /// The key given by `serialize_key`, with how its value is built.
    pending: Option<Key<'py>>,
    /// The keys read by the alias-named keys this dictionary holds.
    shadowed: Vec<&'static [&'static str]>,
    /// Whether a value is anything but a string, a number, a boolean or `None`.
    containers: bool,
    /// Whether it holds GeoRSS `coordinates` (see [`MapSer::geometry`]).
    coordinates: bool,
}

/// A map key read: its Python string, the kind of its value, and whether strings are
/// shared under it (`feed` and `entries`, see `Builder::shared`).
struct Key<'py> {
    object: Bound<'py, PyString>,
    kind: Kind,
    share: bool,
    shadows: Option<&'static [&'static str]>,
}

impl<'py> MapSer<'_, 'py> {
    /// Reads a key.
    fn key<K: Serialize + ?Sized>(&mut self, key: &K) -> Result<Key<'py>> {
        let mut capture = KeyCapture {
            b: &mut *self.b,
            parent: self.kind,
            out: None,
        };
        key.serialize(&mut capture)?;
        capture.out.ok_or_else(not_a_key)
    }

    fn put<V: Serialize + ?Sized>(&mut self, key: Key<'py>, value: &V) -> Result<()> {
        let top = self.kind == Kind::Top;
        if top {
            self.b.share = key.share;
        }
        let v = value.serialize(Ser {
            b: &mut *self.b,
            kind: key.kind,
        });
        if top {
            self.b.share = false;
        }
        if let Some(reads) = key.shadows
            && self.kind != Kind::PlainDict
        {
            self.shadowed.push(reads);
        }
        let v = v?;
        if !self.containers && !is_atomic(&v) {
            self.containers = true;
        }
        if key.kind == Kind::Coordinates {
            self.coordinates = true;
        }
        self.dict.set_item(key.object, v)?;
        Ok(())
    }

    /// A GeoRSS location's `coordinates` in feedparser's shape, which depends on its
    /// `type` (the JSON contract has arrays for all): a point is a tuple of numbers
    /// (made so by [`SeqSer::finish`]), a line a list of point tuples, a box a tuple of
    /// its two corners, a polygon a tuple holding the list of its points.
    fn geometry(&self) -> Result<()> {
        let py = self.b.py;
        let Some(kind) = self.dict.get_item(pyo3::intern!(py, "type"))? else {
            return Ok(());
        };
        if !(kind.eq("Box")? || kind.eq("Polygon")?) {
            return Ok(());
        }
        let key = pyo3::intern!(py, "coordinates");
        if let Some(list) = self.dict.get_item(key)?
            && let Ok(list) = list.cast::<PyList>()
        {
            self.dict.set_item(key, list.to_tuple())?;
        }
        Ok(())
    }

    fn finish(self) -> Result<Bound<'py, PyAny>> {
        if self.coordinates {
            self.geometry()?;
        }
        // An alias-named key beside a key it reads: feedparser resolves the alias first.
        let shadowing = self.shadowed.iter().any(|reads| {
            reads
                .iter()
                .any(|k| self.dict.contains(*k).unwrap_or(false))
        });
        if shadowing {
            let t = self.b.shadowing_type()?;
            self.dict.setattr("__class__", t)?;
        }
        if !self.containers && self.kind != Kind::PlainDict {
            // What the collector does for a plain dictionary of such values, which its
            // subclasses never get: see `fast::untrack`.
            crate::fast::untrack(&self.dict);
        }
        Ok(self.dict.into_any())
    }
}

impl<'py> ser::SerializeMap for MapSer<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.pending = Some(self.key(key)?);
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let key = self
            .pending
            .take()
            .ok_or_else(|| <Error as ser::Error>::custom("a map value without its key"))?;
        self.put(key, value)
    }

    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<()> {
        let key = self.key(key)?;
        self.put(key, value)
    }

    fn end(self) -> Result<Self::Ok> {
        self.finish()
    }
}

impl<'py> ser::SerializeStruct for MapSer<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        ser::SerializeMap::serialize_entry(self, key, value)
    }

    fn end(self) -> Result<Self::Ok> {
        Ok(self.dict.into_any())
    }
}

/// An enum variant with data: `{variant: data}`.
pub(crate) struct VariantSer<'py, I> {
    outer: Bound<'py, PyDict>,
    variant: &'static str,
    inner: I,
}

impl<'py> ser::SerializeTupleVariant for VariantSer<'py, SeqSer<'_, 'py>> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.inner.push(value)
    }

    fn end(self) -> Result<Self::Ok> {
        let v = self.inner.finish()?;
        self.outer.set_item(self.variant, v)?;
        Ok(self.outer.into_any())
    }
}

impl<'py> ser::SerializeStructVariant for VariantSer<'py, MapSer<'_, 'py>> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        ser::SerializeMap::serialize_entry(&mut self.inner, key, value)
    }

    fn end(self) -> Result<Self::Ok> {
        let inner = self.inner.finish()?;
        self.outer.set_item(self.variant, inner)?;
        Ok(self.outer.into_any())
    }
}

/// Reads a map key (a string, possibly inside a newtype).
struct KeyCapture<'a, 'py> {
    b: &'a mut Builder<'py>,
    /// The kind of the map the key is in.
    parent: Kind,
    out: Option<Key<'py>>,
}

impl<'py> KeyCapture<'_, 'py> {
    fn read(&mut self, key: &str) -> Result<()> {
        // The response's Last-Modified: the JSON contract's `modified`, which feedparser
        // stores as `updated` (its `modified` reads it as an alias), so that
        // `result.updated` and `result.modified` both give it.
        let key = match (self.parent, key) {
            (Kind::Top, "modified") => "updated",
            (Kind::Top, "modified_parsed") => "updated_parsed",
            _ => key,
        };
        let (object, role, shadows) = self.b.key_info(key)?;
        self.out = Some(Key {
            kind: self.parent.of_entry(role),
            share: self.parent == Kind::Top && role == Role::Model,
            shadows,
            object,
        });
        Ok(())
    }
}

fn not_a_key() -> Error {
    <Error as ser::Error>::custom("a map key that is not a string")
}

macro_rules! refuse {
    ($($f:ident($($t:ty),*)),*) => {$(
        fn $f(self, $(_: $t),*) -> Result<()> {
            Err(not_a_key())
        }
    )*};
}

impl ser::Serializer for &mut KeyCapture<'_, '_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    fn serialize_str(self, v: &str) -> Result<()> {
        self.read(v)
    }

    fn serialize_char(self, v: char) -> Result<()> {
        self.read(v.encode_utf8(&mut [0; 4]))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.read(variant)
    }

    refuse!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str)
    );

    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<()> {
        Err(not_a_key())
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<()> {
        Err(not_a_key())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(not_a_key())
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        Err(not_a_key())
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(not_a_key())
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(not_a_key())
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(not_a_key())
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
        Err(not_a_key())
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(not_a_key())
    }
}
