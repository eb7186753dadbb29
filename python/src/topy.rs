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

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
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

/// What is needed to build the objects, and the caches of one conversion.
pub(crate) struct Builder<'py> {
    py: Python<'py>,
    /// The package's `FeedParserDict` class.
    dict_type: Bound<'py, PyAny>,
    struct_time: Bound<'py, PyAny>,
    timedelta: Bound<'py, PyAny>,
    /// Map keys, interned.
    keys: HashMap<Box<str>, Bound<'py, PyString>>,
    /// The key being read (reused: no allocation per key).
    key: String,
    /// Strings of the model by address and length. Only used under `feed` and
    /// `entries`, where every string is borrowed from the result being converted (which
    /// lives and does not change during the conversion), so the same address and length
    /// are the same text; the top-level keys around them serialize temporaries.
    shared: Vec<Option<(usize, usize, Bound<'py, PyString>)>>,
    share: bool,
}

impl<'py> Builder<'py> {
    /// A builder whose objects are instances of `dict_type` (a `dict` subclass).
    pub(crate) fn new(py: Python<'py>, dict_type: Bound<'py, PyAny>) -> PyResult<Self> {
        Ok(Builder {
            py,
            dict_type,
            struct_time: py.import("time")?.getattr("struct_time")?,
            timedelta: py.import("datetime")?.getattr("timedelta")?,
            keys: HashMap::new(),
            key: String::new(),
            shared: vec![None; SHARED],
            share: false,
        })
    }

    /// Converts a value whose top level is the contract's object.
    pub(crate) fn top<T: Serialize + ?Sized>(&mut self, value: &T) -> PyResult<Bound<'py, PyAny>> {
        let out = value.serialize(Ser {
            b: self,
            kind: Kind::Top,
        });
        self.share = false;
        self.shared.iter_mut().for_each(|s| *s = None);
        out.map_err(|e| e.0)
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
        Ok(self
            .dict_type
            .call0()?
            .cast_into::<PyDict>()
            .map_err(PyErr::from)?)
    }

    fn string(&mut self, v: &str) -> Bound<'py, PyString> {
        if !self.share || v.is_empty() {
            return PyString::new(self.py, v);
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
        self.shared[slot] = Some((addr, v.len(), s.clone()));
        s
    }

    /// The interned Python string of the key just read into `self.key`.
    fn key_object(&mut self) -> Bound<'py, PyString> {
        if let Some(k) = self.keys.get(self.key.as_str()) {
            return k.clone();
        }
        let k = PyString::intern(self.py, &self.key);
        self.keys.insert(self.key.as_str().into(), k.clone());
        k
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
    /// The kind of the value under `key`, in a map of this kind.
    fn of_entry(self, key: &str) -> Kind {
        match (self, key) {
            (Kind::Top, "headers" | "namespaces") => Kind::PlainDict,
            (Kind::PlainDict, _) => Kind::Plain,
            (_, "coordinates") => Kind::Coordinates,
            (_, k) if k.ends_with("_parsed") => Kind::Parsed,
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
            return Ok(self.b.timedelta.call((0, v), None)?);
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
            },
        })
    }
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
                let t = PyTuple::new(py, self.items)?;
                Ok(self.b.struct_time.call1((t,))?)
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
    /// The key given by `serialize_key`, with the kind of its value.
    pending: Option<(Bound<'py, PyString>, Kind)>,
}

impl<'py> MapSer<'_, 'py> {
    /// Reads a key, returning its Python string and the kind of its value.
    fn key<K: Serialize + ?Sized>(&mut self, key: &K) -> Result<(Bound<'py, PyString>, Kind)> {
        self.b.key.clear();
        key.serialize(KeyCapture(&mut self.b.key))?;
        let kind = self.kind.of_entry(&self.b.key);
        Ok((self.b.key_object(), kind))
    }

    fn put<V: Serialize + ?Sized>(
        &mut self,
        key: Bound<'py, PyString>,
        kind: Kind,
        value: &V,
    ) -> Result<()> {
        // Strings are shared within `feed` and `entries` only (see `Builder::shared`).
        let top = self.kind == Kind::Top;
        if top {
            let k = key.to_cow().map_err(Error)?;
            self.b.share = matches!(&*k, "feed" | "entries");
        }
        let v = value.serialize(Ser {
            b: &mut *self.b,
            kind,
        });
        if top {
            self.b.share = false;
        }
        self.dict.set_item(key, v?)?;
        Ok(())
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
        let (key, kind) = self
            .pending
            .take()
            .ok_or_else(|| <Error as ser::Error>::custom("a map value without its key"))?;
        self.put(key, kind, value)
    }

    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<()> {
        let (key, kind) = self.key(key)?;
        self.put(key, kind, value)
    }

    fn end(self) -> Result<Self::Ok> {
        Ok(self.dict.into_any())
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
        self.outer.set_item(self.variant, self.inner.dict)?;
        Ok(self.outer.into_any())
    }
}

/// Reads a map key (a string, possibly inside a newtype) into a buffer.
struct KeyCapture<'k>(&'k mut String);

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

impl ser::Serializer for KeyCapture<'_> {
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
        self.0.push_str(v);
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<()> {
        self.0.push(v);
        Ok(())
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
        self.0.push_str(variant);
        Ok(())
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
