/* tagstr_runtime._speedups: the optional compiled half of the runtime (issue 42).
 *
 * One thing only: building an ``Interpolation`` at each evaluation of a tag
 * string.  A tag string in a function makes a closure and an Interpolation
 * per field per evaluation (SPEC 3, 4); calling the Python class (a heap
 * subclass of ``tuple``) goes through ``type.__call__``, an argument tuple,
 * ``tuple.__new__`` and ``object.__init__``: half the cost of the evaluation.
 * ``interpolation_factory(Interpolation)`` returns a builtin function that
 * allocates the same object directly, from its four fields (the form the
 * runtime emitter writes when this module is importable: ``_rt.fields_table``)
 * or from one 4-tuple (``_rt.table``'s form).  The class stays the Python one
 * (``_types.Interpolation``): same type, same methods, same pickling; only
 * the way its instances are made differs.  ``_rt`` falls back to the class
 * itself where this module is not built (Pyodide, no compiler,
 * ``TAGSTR_PURE_PYTHON=1``): the pure-Python path is the reference, and
 * ``tests/tagstr_runtime/test_speedups.py`` runs both.  See
 * docs/decisions/0027-compiled-interpolation-constructor.md.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* Bumped whenever what generated code may call here changes: part of the cache fingerprint. */
#define SPEEDUPS_ABI 1

static PyObject *
new_interpolation(PyTypeObject *cls, PyObject *const *fields)
{
    PyObject *self = cls->tp_alloc(cls, 4);
    if (self == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < 4; i++) {
        PyObject *item = fields[i];
        Py_INCREF(item);
        PyTuple_SET_ITEM(self, i, item);
    }
#if PY_VERSION_HEX >= 0x030E0000
    /* 3.14 caches a tuple's hash; -1 is "not computed yet" (tuple_alloc sets it so) */
    ((PyTupleObject *)self)->ob_hash = -1;
#endif
    return self;
}

/* self: the Interpolation class (the function's bound object, checked by the factory) */
static PyObject *
build(PyObject *cls, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs == 4) {
        return new_interpolation((PyTypeObject *)cls, args);
    }
    if (nargs == 1 && PyTuple_CheckExact(args[0]) && PyTuple_GET_SIZE(args[0]) == 4) {
        return new_interpolation((PyTypeObject *)cls, ((PyTupleObject *)args[0])->ob_item);
    }
    /* anything else: what calling the class does, errors included */
    return PyObject_Vectorcall(cls, args, (size_t)nargs, NULL);
}

static PyMethodDef build_def = {
    "Interpolation", (PyCFunction)(void (*)(void))build, METH_FASTCALL,
    "Interpolation(getvalue, expr, conv, format_spec) or Interpolation((getvalue, expr, conv, format_spec))",
};

static PyObject *
interpolation_factory(PyObject *module, PyObject *cls)
{
    PyTypeObject *type = (PyTypeObject *)cls;
    /* a tuple subclass laid out as a tuple, made by tuple.__new__ and object.__init__:
       what new_interpolation builds is then exactly what calling it builds */
    if (!PyType_Check(cls) || !PyType_IsSubtype(type, &PyTuple_Type)
        || type->tp_basicsize != PyTuple_Type.tp_basicsize
        || type->tp_itemsize != PyTuple_Type.tp_itemsize
        || type->tp_dictoffset != 0 || type->tp_weaklistoffset != 0
        || type->tp_new != PyTuple_Type.tp_new
        || type->tp_init != PyBaseObject_Type.tp_init) {
        PyErr_SetString(PyExc_TypeError,
                        "interpolation_factory() takes a tuple subclass with no instance "
                        "attributes, __new__ or __init__ of its own");
        return NULL;
    }
    return PyCFunction_New(&build_def, cls);
}

static PyMethodDef module_methods[] = {
    {"interpolation_factory", interpolation_factory, METH_O,
     "A builtin function making instances of the tuple subclass ``cls`` from its 4 items."},
    {NULL, NULL, 0, NULL},
};

static int
module_exec(PyObject *module)
{
    return PyModule_AddIntConstant(module, "ABI", SPEEDUPS_ABI);
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
#ifdef Py_mod_multiple_interpreters
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
#ifdef Py_mod_gil
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "tagstr_runtime._speedups",
    "The optional compiled constructor of tagstr_runtime.Interpolation (see _rt).",
    0,
    module_methods,
    module_slots,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModuleDef_Init(&module_def);
}
