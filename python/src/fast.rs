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
//! installation (aliases, computed keys, the `updated` fallback), so the behaviour is the
//! Python class's exactly.
//!
//! This is the crate's only unsafe code: raw calls of the stable C API, each commented.

#![allow(unsafe_code)]

use std::ffi::CStr;
use std::ptr;
use std::sync::Once;
use std::sync::atomic::{AtomicPtr, Ordering};

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyType;

/// The Python fallbacks (strong references, kept for the life of the process).
static GET_FALLBACK: AtomicPtr<ffi::PyObject> = AtomicPtr::new(ptr::null_mut());
static CONTAINS_FALLBACK: AtomicPtr<ffi::PyObject> = AtomicPtr::new(ptr::null_mut());

/// Calls `fallback(slf, *args)` (`args` a tuple, borrowed): a new reference or NULL with
/// an exception set.
///
/// # Safety
/// The caller holds the interpreter; `slf`, `args` and `fallback` are valid objects.
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
        let all = ffi::PyTuple_New(n + 1);
        if all.is_null() {
            return ptr::null_mut();
        }
        // PyTuple_SetItem steals a reference: give it one of its own.
        ffi::Py_IncRef(slf);
        ffi::PyTuple_SetItem(all, 0, slf);
        for i in 0..n {
            let item = ffi::PyTuple_GetItem(args, i);
            ffi::Py_IncRef(item);
            ffi::PyTuple_SetItem(all, i + 1, item);
        }
        let out = ffi::PyObject_Call(fallback, all, ptr::null_mut());
        ffi::Py_DecRef(all);
        out
    }
}

/// `get(key, default=None)`, `METH_VARARGS`.
unsafe extern "C" fn get(slf: *mut ffi::PyObject, args: *mut ffi::PyObject) -> *mut ffi::PyObject {
    // SAFETY: called by the interpreter (which is held) through a method descriptor of a
    // `dict` subclass: `slf` is an instance of it (the descriptor checks), `args` a tuple.
    unsafe {
        let n = ffi::PyTuple_Size(args);
        if n == 1 || n == 2 {
            let key = ffi::PyTuple_GetItem(args, 0);
            // A borrowed reference, or NULL (absent, or an error such as an unhashable key).
            let value = ffi::PyDict_GetItemWithError(slf, key);
            if !value.is_null() {
                ffi::Py_IncRef(value);
                return value;
            }
            if !ffi::PyErr_Occurred().is_null() {
                return ptr::null_mut();
            }
        }
        // Absent (or a wrong argument count, which the fallback reports as Python would).
        call_fallback(GET_FALLBACK.load(Ordering::Acquire), slf, args)
    }
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
                let args = ffi::PyTuple_New(1);
                if args.is_null() {
                    return ptr::null_mut();
                }
                ffi::Py_IncRef(key);
                ffi::PyTuple_SetItem(args, 0, key);
                let out = call_fallback(CONTAINS_FALLBACK.load(Ordering::Acquire), slf, args);
                ffi::Py_DecRef(args);
                out
            }
            _ => ptr::null_mut(),
        }
    }
}

const GET_DOC: &CStr =
    c"get(key, default=None): the value of key, an alias or a computed key, or default.";
const CONTAINS_DOC: &CStr = c"Whether key, an alias or a computed key has a value.";

static INSTALLED: Once = Once::new();

/// Puts the C `get` and `__contains__` on `cls` (the package's `FeedParserDict`), with
/// the Python functions to call when the dictionary does not hold the key:
/// `get_fallback(self, key[, default])` and `contains_fallback(self, key)`. Once per
/// process; later calls do nothing.
#[pyfunction]
pub(crate) fn install_fast_methods(
    cls: &Bound<'_, PyType>,
    get_fallback: &Bound<'_, PyAny>,
    contains_fallback: &Bound<'_, PyAny>,
) -> PyResult<()> {
    if !cls.is_subclass_of::<pyo3::types::PyDict>()? {
        return Err(PyTypeError::new_err("the class must be a dict subclass"));
    }
    let mut result = Ok(());
    INSTALLED.call_once(|| {
        result = install(cls, get_fallback, contains_fallback);
    });
    result
}

fn install(
    cls: &Bound<'_, PyType>,
    get_fallback: &Bound<'_, PyAny>,
    contains_fallback: &Bound<'_, PyAny>,
) -> PyResult<()> {
    // Strong references kept for good: the descriptors may be called until the end.
    GET_FALLBACK.store(get_fallback.clone().into_ptr(), Ordering::Release);
    CONTAINS_FALLBACK.store(contains_fallback.clone().into_ptr(), Ordering::Release);
    let defs: [(&CStr, ffi::PyMethodDefPointer, i32, &CStr); 2] = [
        (
            c"get",
            ffi::PyMethodDefPointer { PyCFunction: get },
            ffi::METH_VARARGS,
            GET_DOC,
        ),
        (
            c"__contains__",
            ffi::PyMethodDefPointer {
                PyCFunction: contains,
            },
            ffi::METH_O,
            CONTAINS_DOC,
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
        Ok(out)
    }
}
