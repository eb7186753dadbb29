//! `FeedParserDict.get` and `FeedParserDict.__contains__` as C methods.
//!
//! `FeedParserDict` is a Python class (a `dict` subclass defined in `util.py`), so its
//! methods would be Python functions: `entry.get("title")` cost about four times a plain
//! dictionary's `get` (2,200 against 900 instructions, callgrind), and reading what an
//! application reads from every entry of a feed spent more in `get` than the engine spent
//! parsing. The limited API (one abi3 wheel for CPython 3.9+) cannot define a `dict`
//! subclass in Rust before 3.12, but it can make a method descriptor of a C function
//! (`PyDescr_NewMethod`) and put it on the class: these two do the common case, a key the
//! dictionary holds, in C, and hand every other case to the Python function given at
//! installation, so the behaviour is the Python class's exactly. From Python 3.10, whose
//! stable ABI has `METH_FASTCALL`, `get` takes its arguments as an array (no tuple per
//! call); on 3.9 as a tuple.
//!
//! A key the dictionary does not hold is common too: an application reads `updated` from
//! every entry of an RSS feed (which has `published`), `enclosures` from every episode,
//! `content` where there is none. Calling the Python fallback for these cost three to ten
//! times a present key. So a table made at installation from the converter's alias table
//! ([`crate::topy::SHADOWING`]) answers in C: a key that is neither an alias nor a
//! computed key is absent; an alias reads the keys it stands for; `updated` and
//! `updated_parsed` fall back to `published` and `published_parsed` with the same
//! `DeprecationWarning` (the Python function given at installation makes it, so that it
//! is filed as the Python class files it); `enclosures` is built from the links. Only
//! `category`, `license` and keys that are not strings go to Python. `__missing__` (what `d[key]`
//! and attribute access call for an absent key) gets the same treatment.
//!
//! This is the crate's only unsafe code: raw calls of the stable C API (and of glibc's
//! `malloc_trim`, [`release_freed_memory`]), each commented.

#![allow(unsafe_code)]

use std::ffi::CStr;
use std::ptr;
use std::sync::Once;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple, PyType};

/// The Python fallbacks (strong references, kept for the life of the process).
static GET_FALLBACK: AtomicPtr<ffi::PyObject> = AtomicPtr::new(ptr::null_mut());
static CONTAINS_FALLBACK: AtomicPtr<ffi::PyObject> = AtomicPtr::new(ptr::null_mut());
static MISSING_FALLBACK: AtomicPtr<ffi::PyObject> = AtomicPtr::new(ptr::null_mut());
/// The exception an absent key raises (`util._MissingKey`).
static MISSING_KEY: AtomicPtr<ffi::PyObject> = AtomicPtr::new(ptr::null_mut());
/// What warns of `updated` read through `published` (`util._warn_fallback`).
static WARN_FALLBACK: AtomicPtr<ffi::PyObject> = AtomicPtr::new(ptr::null_mut());
/// The class itself (for the dictionaries of `enclosures`).
static CLASS: AtomicPtr<ffi::PyObject> = AtomicPtr::new(ptr::null_mut());
/// Alias or computed key -> `(code, the keys it reads)`: see [`lookup_missing`].
static SPECIAL: AtomicPtr<ffi::PyObject> = AtomicPtr::new(ptr::null_mut());

/// Codes of [`SPECIAL`]'s entries.
const ALIAS: u8 = 0;
/// `updated` or `updated_parsed`: its `published` counterpart, with the warning.
const UPDATED: u8 = 1;
const ENCLOSURES: u8 = 2;
/// Answered by the Python fallback (`category`, `license`).
const IN_PYTHON: u8 = 3;

/// What a key the dictionary does not hold stands for.
enum Lookup<'py> {
    Found(Bound<'py, PyAny>),
    Absent,
    /// Left to the Python fallback.
    Python,
}

/// A borrowed object kept in one of the statics above.
///
/// # Safety
/// The interpreter is held and `slot` was filled by [`install`] (which keeps a strong
/// reference for good).
unsafe fn stored<'py>(py: Python<'py>, slot: &AtomicPtr<ffi::PyObject>) -> Bound<'py, PyAny> {
    // SAFETY: as the caller promises; the reference is borrowed, and stays valid as the
    // static's own is never released.
    unsafe { Bound::from_borrowed_ptr(py, slot.load(Ordering::Acquire)) }
}

/// What [`SPECIAL`] says of a key.
enum Special<'py> {
    /// Not a string: the Python fallbacks decide.
    NotAString,
    /// Neither an alias nor a computed key.
    Plain,
    /// Its code and the keys it reads.
    Entry(u8, Bound<'py, PyTuple>),
}

/// Looks `key` up in [`SPECIAL`].
fn special<'py>(key: &Bound<'py, PyAny>) -> PyResult<Special<'py>> {
    if !key.is_instance_of::<PyString>() {
        return Ok(Special::NotAString);
    }
    // SAFETY: the interpreter is held (`key` is bound); the methods that call this are
    // installed (and can only run) after `install` filled the statics.
    let table = unsafe { stored(key.py(), &SPECIAL) };
    match table.cast::<PyDict>()?.get_item(key)? {
        None => Ok(Special::Plain),
        Some(entry) => {
            let (code, reads) = entry.extract()?;
            Ok(Special::Entry(code, reads))
        }
    }
}

/// `key` looked up in `d` beyond its own keys, as `util._resolve` does: aliases,
/// `updated`'s fallback (with its warning) and `enclosures`.
fn lookup_missing<'py>(d: &Bound<'py, PyDict>, key: &Bound<'py, PyAny>) -> PyResult<Lookup<'py>> {
    let py = d.py();
    let (code, reads) = match special(key)? {
        Special::NotAString => return Ok(Lookup::Python),
        Special::Plain => return Ok(Lookup::Absent),
        Special::Entry(code, reads) => (code, reads),
    };
    match code {
        ALIAS => {
            for k in reads.iter() {
                if let Some(v) = d.get_item(k)? {
                    return Ok(Lookup::Found(v));
                }
            }
            Ok(Lookup::Absent)
        }
        UPDATED => match d.get_item(reads.get_item(0)?)? {
            Some(v) => {
                let filters = Filters::now(py)?;
                if !filters.known_to_ignore() {
                    // SAFETY: as in `special`.
                    let warn = unsafe { stored(py, &WARN_FALLBACK) };
                    // Depth 1: the Python code that called this C method. True: the
                    // filters ignore the warning, whatever line reads the key.
                    if warn.call1((key, 1))?.is_truthy()? {
                        filters.remember_ignored();
                    }
                }
                Ok(Lookup::Found(v))
            }
            None => Ok(Lookup::Absent),
        },
        ENCLOSURES => {
            let Some(links) = d.get_item(reads.get_item(0)?)? else {
                return Ok(Lookup::Absent);
            };
            // Anything but the list a result holds goes the general way.
            let Ok(links) = links.cast_exact::<PyList>() else {
                return Ok(Lookup::Python);
            };
            enclosures(links).map(|l| Lookup::Found(l.into_any()))
        }
        _ => Ok(Lookup::Python),
    }
}

/// The state of Python's warning filters, as far as it is cheap to tell: the
/// `warnings.filters` list, its length and first filter, and `warnings.defaultaction`.
///
/// Every change the `warnings` functions make shows here: `filterwarnings` and
/// `simplefilter` put a filter first (a new one, or one moved from further down),
/// `resetwarnings` empties the list, `catch_warnings` puts a copy in its place and the
/// original back. (A program that rewrites the list's items in place, keeping its length
/// and first item, is not seen; Python's own cache of shown warnings misses that too.)
struct Filters<'py> {
    list: Bound<'py, PyAny>,
    len: usize,
    first: Option<Bound<'py, PyAny>>,
    default: Bound<'py, PyAny>,
}

/// The filters under which the `updated` fallback's warning was last found ignored:
/// the list, its length, its first filter and the default action (strong references,
/// so that an address seen again is the same object).
type IgnoredUnder = (Py<PyAny>, usize, Option<Py<PyAny>>, Py<PyAny>);

/// See [`IgnoredUnder`].
static IGNORED_UNDER: std::sync::Mutex<Option<IgnoredUnder>> = std::sync::Mutex::new(None);

/// `warnings`, imported once.
static WARNINGS: pyo3::sync::PyOnceLock<Py<PyModule>> = pyo3::sync::PyOnceLock::new();

impl<'py> Filters<'py> {
    fn now(py: Python<'py>) -> PyResult<Self> {
        let warnings =
            WARNINGS.get_or_try_init(py, || PyResult::Ok(py.import("warnings")?.unbind()))?;
        let warnings = warnings.bind(py);
        let list = warnings.getattr(intern!(py, "filters"))?;
        let (len, first) = match list.cast::<PyList>() {
            Ok(l) => (l.len(), l.get_item(0).ok()),
            Err(_) => (usize::MAX, None), // not a list: never matched
        };
        Ok(Filters {
            list,
            len,
            first,
            default: warnings.getattr(intern!(py, "defaultaction"))?,
        })
    }

    /// Whether these are the filters the warning was last found ignored under.
    fn known_to_ignore(&self) -> bool {
        let Ok(guard) = IGNORED_UNDER.lock() else {
            return false;
        };
        let Some((list, len, first, default)) = guard.as_ref() else {
            return false;
        };
        *len == self.len
            && list.as_ptr() == self.list.as_ptr()
            && first.as_ref().map(Py::as_ptr) == self.first.as_ref().map(Bound::as_ptr)
            && default.as_ptr() == self.default.as_ptr()
    }

    /// Notes that the warning is ignored under these filters.
    fn remember_ignored(self) {
        if self.len == usize::MAX {
            return; // not a list: never known
        }
        if let Ok(mut guard) = IGNORED_UNDER.lock() {
            *guard = Some((
                self.list.unbind(),
                self.len,
                self.first.map(Bound::unbind),
                self.default.unbind(),
            ));
        }
    }
}

/// Whether `v` is a `str` whose text is `text` (ASCII). The result's keys are interned,
/// so a key is first compared by address; other strings by their text, without the rich
/// comparison's `bool` objects (an episode's `entry.enclosures`, read from every entry,
/// cost three times building its dictionaries when every comparison made and freed a
/// string). A `str` subclass compares as Python compares it.
fn is_text(v: &Bound<'_, PyAny>, interned: &Bound<'_, PyString>, text: &CStr) -> PyResult<bool> {
    if v.as_ptr() == interned.as_ptr() {
        return Ok(true);
    }
    if v.is_exact_instance_of::<PyString>() {
        // SAFETY: the interpreter is held and `v` is a `str`; the function reads the
        // string and a NUL-terminated ASCII text, and cannot fail.
        return Ok(
            unsafe { ffi::PyUnicode_CompareWithASCIIString(v.as_ptr(), text.as_ptr()) } == 0,
        );
    }
    v.eq(interned)
}

/// The links whose `rel` is `enclosure`, each a new dictionary without its `rel`.
fn enclosures<'py>(links: &Bound<'py, PyList>) -> PyResult<Bound<'py, PyList>> {
    let py = links.py();
    // SAFETY: as in `lookup_missing`.
    let class = unsafe { stored(py, &CLASS) };
    let class = class.cast::<PyType>()?;
    let rel = intern!(py, "rel");
    let enclosure = intern!(py, "enclosure");
    let out = PyList::empty(py);
    for link in links.iter() {
        let Ok(link) = link.cast::<PyDict>() else {
            continue;
        };
        // `link.get("rel")`: "rel" is no alias, so a plain lookup answers as `get` does.
        match link.get_item(rel)? {
            Some(v) if is_text(&v, enclosure, c"enclosure")? => {}
            _ => continue,
        }
        let copy = new_dict(class)?;
        for (k, v) in link.iter() {
            if !is_text(&k, rel, c"rel")? {
                copy.set_item(k, v)?;
            }
        }
        out.append(copy)?;
    }
    Ok(out)
}

/// Whether `key`, absent from `d`, has a value by [`lookup_missing`]'s rules (no warning:
/// `updated` is not "in" a dictionary that only has `published`, as in the Python class).
fn contains_missing<'py>(
    d: &Bound<'py, PyDict>,
    key: &Bound<'py, PyAny>,
) -> PyResult<Option<bool>> {
    let (code, reads) = match special(key)? {
        Special::NotAString => return Ok(None),
        Special::Plain => return Ok(Some(false)),
        Special::Entry(code, reads) => (code, reads),
    };
    match code {
        ALIAS => {
            for k in reads.iter() {
                if d.contains(k)? {
                    return Ok(Some(true));
                }
            }
            Ok(Some(false))
        }
        UPDATED => Ok(Some(false)),
        ENCLOSURES => Ok(Some(d.contains(reads.get_item(0)?)?)),
        _ => Ok(None),
    }
}

/// The table [`lookup_missing`] reads.
fn special_table(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let table = PyDict::new(py);
    for (alias, reads) in crate::topy::SHADOWING {
        let code = match *alias {
            "enclosures" => ENCLOSURES,
            "category" | "license" => IN_PYTHON,
            _ => ALIAS,
        };
        let reads = PyTuple::new(py, reads.iter().map(|k| PyString::intern(py, k)))?;
        table.set_item(PyString::intern(py, alias), (code, reads))?;
    }
    for (key, code, reads) in [
        ("updated", UPDATED, "published"),
        ("updated_parsed", UPDATED, "published_parsed"),
    ] {
        let reads = PyTuple::new(py, [PyString::intern(py, reads)])?;
        table.set_item(PyString::intern(py, key), (code, reads))?;
    }
    Ok(table)
}

/// Calls `fallback(slf, *items)` (`items` borrowed references): a new reference or NULL
/// with an exception set.
///
/// # Safety
/// The caller holds the interpreter; `slf`, `fallback` and every item are valid objects.
unsafe fn call_with_self(
    fallback: *mut ffi::PyObject,
    slf: *mut ffi::PyObject,
    items: impl ExactSizeIterator<Item = *mut ffi::PyObject>,
) -> *mut ffi::PyObject {
    unsafe {
        let Ok(n) = ffi::Py_ssize_t::try_from(items.len() + 1) else {
            return ptr::null_mut();
        };
        let all = ffi::PyTuple_New(n);
        if all.is_null() {
            return ptr::null_mut();
        }
        // PyTuple_SetItem steals a reference: give each item one of its own.
        for (i, item) in (0..).zip(std::iter::once(slf).chain(items)) {
            ffi::Py_IncRef(item);
            ffi::PyTuple_SetItem(all, i, item);
        }
        let out = ffi::PyObject_Call(fallback, all, ptr::null_mut());
        ffi::Py_DecRef(all);
        out
    }
}

/// Calls `fallback(slf, *args)` (`args` a tuple, borrowed): a new reference or NULL with
/// an exception set.
///
/// # Safety
/// As for [`call_with_self`]; `args` is a tuple.
unsafe fn call_fallback(
    fallback: *mut ffi::PyObject,
    slf: *mut ffi::PyObject,
    args: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    unsafe {
        let n = ffi::PyTuple_Size(args);
        if n < 0 {
            return ptr::null_mut();
        }
        call_with_self(fallback, slf, (0..n).map(|i| ffi::PyTuple_GetItem(args, i)))
    }
}

/// Calls the fallback in `slot` as `fallback(slf, key)` (`key` borrowed): a new
/// reference or NULL with an exception set.
///
/// # Safety
/// As for [`call_with_self`]; `slot` was filled by `install`.
unsafe fn call_fallback_with_key(
    slot: &AtomicPtr<ffi::PyObject>,
    slf: *mut ffi::PyObject,
    key: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    unsafe { call_with_self(slot.load(Ordering::Acquire), slf, std::iter::once(key)) }
}

/// `get(key, default=None)` for one or two arguments (`default` NULL for one): the value,
/// a new reference; NULL with an exception set; or NULL with none set when the Python
/// fallback is to answer.
///
/// # Safety
/// The interpreter is held; `slf` is an instance of the class, `key` and `default`
/// (when not NULL) valid borrowed references.
unsafe fn get_value(
    slf: *mut ffi::PyObject,
    key: *mut ffi::PyObject,
    default: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    unsafe {
        // A borrowed reference, or NULL (absent, or an error such as an unhashable key).
        let value = ffi::PyDict_GetItemWithError(slf, key);
        if !value.is_null() {
            ffi::Py_IncRef(value);
            return value;
        }
        if !ffi::PyErr_Occurred().is_null() {
            return ptr::null_mut();
        }
        let py = Python::assume_attached();
        let d = Bound::from_borrowed_ptr(py, slf).cast_into_unchecked::<PyDict>();
        let key = Bound::from_borrowed_ptr(py, key);
        match lookup_missing(&d, &key) {
            Ok(Lookup::Found(v)) => v.into_ptr(),
            Ok(Lookup::Absent) => {
                let default = if default.is_null() {
                    ffi::Py_None()
                } else {
                    default
                };
                ffi::Py_IncRef(default);
                default
            }
            Ok(Lookup::Python) => ptr::null_mut(),
            Err(e) => {
                e.restore(py);
                ptr::null_mut()
            }
        }
    }
}

/// `get(key, default=None)`, `METH_VARARGS` (Python 3.9, whose stable ABI has no
/// `METH_FASTCALL`).
unsafe extern "C" fn get(slf: *mut ffi::PyObject, args: *mut ffi::PyObject) -> *mut ffi::PyObject {
    // SAFETY: called by the interpreter (which is held) through a method descriptor of a
    // `dict` subclass: `slf` is an instance of it (the descriptor checks), `args` a tuple.
    unsafe {
        let n = ffi::PyTuple_Size(args);
        if n == 1 || n == 2 {
            let default = if n == 2 {
                ffi::PyTuple_GetItem(args, 1)
            } else {
                ptr::null_mut()
            };
            let out = get_value(slf, ffi::PyTuple_GetItem(args, 0), default);
            if !out.is_null() || !ffi::PyErr_Occurred().is_null() {
                return out;
            }
            // Left to Python.
            return call_fallback(GET_FALLBACK.load(Ordering::Acquire), slf, args);
        }
        wrong_count(n)
    }
}

/// `METH_FASTCALL`: part of the stable ABI from Python 3.10 (the arguments come as an
/// array, without the tuple `METH_VARARGS` makes for every call). pyo3's bindings for
/// the 3.9 stable ABI leave it out; its value is fixed by the ABI.
const METH_FASTCALL: std::ffi::c_int = 0x0080;

/// `get(key, default=None)`, `METH_FASTCALL` (Python 3.10 and later): `entry.get(k)`
/// is the call an application makes most, and building the argument tuple was a third
/// of its cost.
unsafe extern "C" fn get_fast(
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
) -> *mut ffi::PyObject {
    // SAFETY: called by the interpreter (which is held) through a method descriptor of a
    // `dict` subclass: `slf` is an instance of it, `args` points to `nargs` borrowed
    // references.
    unsafe {
        if nargs == 1 || nargs == 2 {
            let default = if nargs == 2 {
                *args.add(1)
            } else {
                ptr::null_mut()
            };
            let out = get_value(slf, *args, default);
            if !out.is_null() || !ffi::PyErr_Occurred().is_null() {
                return out;
            }
            // Left to Python.
            let items = (0..nargs).map(|i| *args.offset(i));
            return call_with_self(GET_FALLBACK.load(Ordering::Acquire), slf, items);
        }
        wrong_count(nargs)
    }
}

/// `get` called with other than one or two arguments: `dict.get`'s `TypeError`.
fn wrong_count(n: ffi::Py_ssize_t) -> *mut ffi::PyObject {
    // SAFETY: only called from the methods above, with the interpreter held.
    let py = unsafe { Python::assume_attached() };
    let message = if n < 1 {
        format!("get expected at least 1 argument, got {n}")
    } else {
        format!("get expected at most 2 arguments, got {n}")
    };
    PyTypeError::new_err(message).restore(py);
    ptr::null_mut()
}

/// `__contains__(key)`, `METH_O`.
unsafe extern "C" fn contains(
    slf: *mut ffi::PyObject,
    key: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: as for `get`; `key` is a borrowed reference to the argument.
    unsafe {
        match ffi::PyDict_Contains(slf, key) {
            1 => {
                let t = ffi::Py_True();
                ffi::Py_IncRef(t);
                t
            }
            0 => {
                let py = Python::assume_attached();
                let d = Bound::from_borrowed_ptr(py, slf).cast_into_unchecked::<PyDict>();
                match contains_missing(&d, &Bound::from_borrowed_ptr(py, key)) {
                    Ok(Some(found)) => {
                        let b = if found {
                            ffi::Py_True()
                        } else {
                            ffi::Py_False()
                        };
                        ffi::Py_IncRef(b);
                        return b;
                    }
                    Ok(None) => {}
                    Err(e) => {
                        e.restore(py);
                        return ptr::null_mut();
                    }
                }
                call_fallback_with_key(&CONTAINS_FALLBACK, slf, key)
            }
            _ => ptr::null_mut(),
        }
    }
}

/// `__missing__(key)`, `METH_O`: what `d[key]` returns for a key the dictionary lacks.
unsafe extern "C" fn missing(
    slf: *mut ffi::PyObject,
    key: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: as for `get`; `key` is a borrowed reference to the argument.
    unsafe {
        let py = Python::assume_attached();
        let d = Bound::from_borrowed_ptr(py, slf).cast_into_unchecked::<PyDict>();
        let key_obj = Bound::from_borrowed_ptr(py, key);
        match lookup_missing(&d, &key_obj) {
            Ok(Lookup::Found(v)) => v.into_ptr(),
            Ok(Lookup::Absent) => {
                let error = stored(py, &MISSING_KEY);
                match error.call1((key_obj,)) {
                    Ok(e) => PyErr::from_value(e).restore(py),
                    Err(e) => e.restore(py),
                }
                ptr::null_mut()
            }
            Ok(Lookup::Python) => call_fallback_with_key(&MISSING_FALLBACK, slf, key),
            Err(e) => {
                e.restore(py);
                ptr::null_mut()
            }
        }
    }
}

/// The getter of `d.<key>` for a key the class gives a property (`METH_O`, bound to the
/// key, see [`key_getter`]): `d[key]`, and for an absent key (any `KeyError`) the
/// `AttributeError` feedparser's `__getattr__` raises, `object has no attribute 'key'`.
/// Other errors pass through.
unsafe extern "C" fn key_attribute(
    key: *mut ffi::PyObject,
    obj: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: called by the interpreter, which is held, with `key` the function's bound
    // object (a `str`, kept alive by the function) and `obj` a borrowed reference to the
    // argument. `PyObject_GetItem` returns a new reference or NULL with an error set;
    // `PyUnicode_FromFormat`'s `%U` takes a `str`.
    unsafe {
        let value = ffi::PyObject_GetItem(obj, key);
        if value.is_null() && ffi::PyErr_ExceptionMatches(ffi::PyExc_KeyError) != 0 {
            ffi::PyErr_Clear();
            let message = ffi::PyUnicode_FromFormat(c"object has no attribute '%U'".as_ptr(), key);
            if !message.is_null() {
                ffi::PyErr_SetObject(ffi::PyExc_AttributeError, message);
                ffi::Py_DecRef(message);
            }
        }
        value
    }
}

/// The definition of every [`key_getter`] function (they differ by their bound key).
struct KeyGetterDef(std::cell::UnsafeCell<ffi::PyMethodDef>);

// SAFETY: the definition is written once, below, and never changed; the interpreter only
// reads it.
unsafe impl Sync for KeyGetterDef {}

static KEY_GETTER_DEF: KeyGetterDef = KeyGetterDef(std::cell::UnsafeCell::new(ffi::PyMethodDef {
    ml_name: c"key_getter".as_ptr(),
    ml_meth: ffi::PyMethodDefPointer {
        PyCFunction: key_attribute,
    },
    ml_flags: ffi::METH_O,
    ml_doc: c"The value of the bound key in the dictionary given; AttributeError when absent."
        .as_ptr(),
}));

/// A getter for a property of `key` on `FeedParserDict` (`getter(d)` is `d[key]`): as
/// fast as `operator.itemgetter(key)`, but an absent key raises feedparser's
/// `AttributeError` (`object has no attribute 'key'`) instead of the `KeyError`.
#[pyfunction]
pub(crate) fn key_getter<'py>(key: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: the interpreter is held; the definition is static (it outlives every
    // function made from it) and `key` a live `str`, which the function keeps a
    // reference to.
    unsafe {
        let raw = ffi::PyCFunction_NewEx(KEY_GETTER_DEF.0.get(), key.as_ptr(), ptr::null_mut());
        Bound::from_owned_ptr_or_err(key.py(), raw)
    }
}

const MISSING_DOC: &CStr = c"The value of an alias or a computed key the dictionary lacks.";
const GET_DOC: &CStr =
    c"get(key, default=None): the value of key, an alias or a computed key, or default.";
const CONTAINS_DOC: &CStr = c"Whether key, an alias or a computed key has a value.";

static INSTALLED: Once = Once::new();

/// Puts the C `get` and `__contains__` on `cls` (the package's `FeedParserDict`), with
/// the Python functions to call when the dictionary does not hold the key and the table
/// of aliases leaves it to Python: `get_fallback(self, key[, default])`,
/// `contains_fallback(self, key)` and `missing_fallback(self, key)` (the class's own
/// `__missing__`, which the C one replaces); `missing_key` is the exception class an
/// absent key raises; `warn_fallback(key, depth)` warns that `updated` or
/// `updated_parsed` was read through `published`. Once per process; later calls do
/// nothing.
#[pyfunction]
pub(crate) fn install_fast_methods(
    cls: &Bound<'_, PyType>,
    get_fallback: &Bound<'_, PyAny>,
    contains_fallback: &Bound<'_, PyAny>,
    missing_fallback: &Bound<'_, PyAny>,
    missing_key: &Bound<'_, PyAny>,
    warn_fallback: &Bound<'_, PyAny>,
) -> PyResult<()> {
    if !cls.is_subclass_of::<pyo3::types::PyDict>()? {
        return Err(PyTypeError::new_err("the class must be a dict subclass"));
    }
    let mut result = Ok(());
    INSTALLED.call_once(|| {
        result = install(
            cls,
            [
                get_fallback,
                contains_fallback,
                missing_fallback,
                missing_key,
                warn_fallback,
            ],
        );
    });
    result
}

fn install(cls: &Bound<'_, PyType>, objects: [&Bound<'_, PyAny>; 5]) -> PyResult<()> {
    let special = special_table(cls.py())?;
    // Strong references kept for good: the descriptors may be called until the end.
    let slots = [
        &GET_FALLBACK,
        &CONTAINS_FALLBACK,
        &MISSING_FALLBACK,
        &MISSING_KEY,
        &WARN_FALLBACK,
    ];
    for (slot, object) in slots.into_iter().zip(objects) {
        slot.store(object.clone().into_ptr(), Ordering::Release);
    }
    CLASS.store(cls.clone().into_any().into_ptr(), Ordering::Release);
    SPECIAL.store(special.into_any().into_ptr(), Ordering::Release);
    let defs: [(&CStr, ffi::PyMethodDefPointer, i32, &CStr); 3] = [
        if cls.py().version_info() >= (3, 10) {
            (
                c"get",
                // SAFETY: a `METH_FASTCALL` function as the ABI calls it, stored in the
                // definition's function pointer as C stores it (cast to `PyCFunction`).
                ffi::PyMethodDefPointer {
                    PyCFunction: unsafe {
                        std::mem::transmute::<
                            unsafe extern "C" fn(
                                *mut ffi::PyObject,
                                *const *mut ffi::PyObject,
                                ffi::Py_ssize_t,
                            ) -> *mut ffi::PyObject,
                            ffi::PyCFunction,
                        >(get_fast)
                    },
                },
                METH_FASTCALL,
                GET_DOC,
            )
        } else {
            (
                c"get",
                ffi::PyMethodDefPointer { PyCFunction: get },
                ffi::METH_VARARGS,
                GET_DOC,
            )
        },
        (
            c"__contains__",
            ffi::PyMethodDefPointer {
                PyCFunction: contains,
            },
            ffi::METH_O,
            CONTAINS_DOC,
        ),
        (
            c"__missing__",
            ffi::PyMethodDefPointer {
                PyCFunction: missing,
            },
            ffi::METH_O,
            MISSING_DOC,
        ),
    ];
    for (name, meth, flags, doc) in defs {
        // The descriptor keeps a pointer to its definition: it must live for good.
        let def: &'static mut ffi::PyMethodDef = Box::leak(Box::new(ffi::PyMethodDef {
            ml_name: name.as_ptr(),
            ml_meth: meth,
            ml_flags: flags,
            ml_doc: doc.as_ptr(),
        }));
        // SAFETY: the interpreter is held (`cls` is bound); `cls` is a type object and
        // `def` a valid definition that outlives the descriptor.
        let descr = unsafe {
            let raw = ffi::PyDescr_NewMethod(cls.as_ptr().cast::<ffi::PyTypeObject>(), def);
            Bound::from_owned_ptr_or_err(cls.py(), raw)?
        };
        let name = name
            .to_str()
            .map_err(|e| PyTypeError::new_err(e.to_string()))?;
        cls.setattr(name, descr)?;
    }
    Ok(())
}

/// Takes a dictionary that holds only strings, numbers, booleans and `None` out of the
/// cyclic collector's watch, as the collector itself does for a plain `dict` of such
/// values the first time it meets one (but never for an instance of a subclass, which a
/// `FeedParserDict` is). Such a dictionary cannot be part of a cycle; storing a container
/// in it later puts it back under watch (`dict`'s insertion does, for any dictionary).
/// Most of a result's dictionaries are of this kind (details, links, tags, persons), and
/// every collection walked them all again: 12 % of the time of parsing 200 small feeds
/// and keeping the results.
pub(crate) fn untrack(d: &Bound<'_, pyo3::types::PyDict>) {
    // SAFETY: the interpreter is held (`d` is bound); `d` is a live object of a type that
    // supports the collector (`dict` and its subclasses), and untracking an untracked
    // object does nothing.
    unsafe { ffi::PyObject_GC_UnTrack(d.as_ptr().cast()) }
}

/// Gives the memory the engine freed back to the system now: the model is freed while
/// its Python objects are made, and Python's small objects live in arenas of their own,
/// which cannot reuse the freed chunks of the C heap. glibc keeps freed chunks in its
/// heap (only a free top beyond its trim threshold goes back), so without this the
/// process held the model and its Python objects both at its peak; `malloc_trim` hands
/// back every whole free page of the heap. Other C libraries: nothing to do here.
pub(crate) fn release_freed_memory() {
    CONVERTED_SINCE_RELEASE.store(0, Ordering::Relaxed);
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        unsafe extern "C" {
            fn malloc_trim(pad: usize) -> std::ffi::c_int;
        }
        // SAFETY: `malloc_trim` takes no pointer, may be called at any time from any
        // thread (it locks each arena it trims) and only releases free memory.
        unsafe {
            malloc_trim(0);
        }
    }
}

/// Entries converted since the freed memory was last given back (all threads).
static CONVERTED_SINCE_RELEASE: AtomicUsize = AtomicUsize::new(0);

/// Counts `entries` more converted entries; true once a batch of them
/// ([`crate::topy::ENTRY_BATCH`]) has been converted since the memory was last given
/// back.
pub(crate) fn release_due(entries: usize) -> bool {
    let total = CONVERTED_SINCE_RELEASE.fetch_add(entries, Ordering::Relaxed) + entries;
    total >= crate::topy::ENTRY_BATCH
}

/// A new, empty instance of `cls` (a `dict` subclass made in Python), made by the type's
/// own `tp_new` without its `__init__`: the call through `dict.__new__` (argument tuple,
/// checks) cost as much as the dictionary itself, and `cls()` would run the Python
/// `__init__` for every object of a result.
pub(crate) fn new_dict<'py>(cls: &Bound<'py, PyType>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let py = cls.py();
    // SAFETY: the interpreter is held. `PyType_GetSlot` reads a slot of a heap type (the
    // class is one, made by a class statement; checked below) and gives a function of
    // the `newfunc` type or NULL; it is called with the type, an empty tuple and no
    // keywords, as `type.__call__` would, and returns a new reference or NULL.
    unsafe {
        let tp = cls.as_ptr().cast::<ffi::PyTypeObject>();
        if ffi::PyType_GetFlags(tp) & ffi::Py_TPFLAGS_HEAPTYPE == 0 {
            return Err(PyTypeError::new_err("the class must be a heap type"));
        }
        let slot = ffi::PyType_GetSlot(tp, ffi::Py_tp_new);
        if slot.is_null() {
            return Err(PyTypeError::new_err("the class cannot be instantiated"));
        }
        let new: ffi::newfunc = std::mem::transmute::<*mut std::ffi::c_void, ffi::newfunc>(slot);
        let args = pyo3::types::PyTuple::empty(py);
        let raw = new(tp, args.as_ptr(), ptr::null_mut());
        Bound::from_owned_ptr_or_err(py, raw)?
            .cast_into::<pyo3::types::PyDict>()
            .map_err(PyErr::from)
    }
}

/// A `time.struct_time` of nine integers (its other fields, `tm_zone` and `tm_gmtoff`,
/// `None`, as `time.struct_time(nine)` leaves them), filled in place: the constructor
/// checked and copied its argument for about four times the cost.
pub(crate) fn struct_time<'py>(
    st: &Bound<'py, PyType>,
    n_fields: isize,
    fields: &[i64; 9],
) -> PyResult<Bound<'py, PyAny>> {
    let py = st.py();
    // SAFETY: the interpreter is held; `st` is `time.struct_time`, a struct sequence type
    // of `n_fields` fields (read from its `n_fields` attribute by the caller, at least
    // nine). `PyStructSequence_New` gives a new instance whose fields are all set here
    // (`PyStructSequence_SetItem` steals each reference, and is only given valid ones).
    unsafe {
        let raw = ffi::PyStructSequence_New(st.as_ptr().cast::<ffi::PyTypeObject>());
        let out = Bound::from_owned_ptr_or_err(py, raw)?;
        for (i, v) in fields.iter().enumerate() {
            let n = ffi::PyLong_FromLongLong(*v);
            if n.is_null() {
                // The fields not set yet are NULL, which the type's dealloc accepts.
                return Err(PyErr::fetch(py));
            }
            ffi::PyStructSequence_SetItem(out.as_ptr(), i as ffi::Py_ssize_t, n);
        }
        for i in 9..n_fields {
            let none = ffi::Py_None();
            ffi::Py_IncRef(none);
            ffi::PyStructSequence_SetItem(out.as_ptr(), i, none);
        }
        // Integers and `None` only, and immutable: out of the collector's watch, as a
        // plain tuple of them would be after its first collection (see `untrack`).
        ffi::PyObject_GC_UnTrack(out.as_ptr().cast());
        Ok(out)
    }
}
