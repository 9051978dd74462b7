/*
 * eslabon._engine._fastcall: thin CPython entry points into the compiled kernels.
 *
 * Why it exists (docs/performance.md, "Per call"): calling a numba dispatcher costs about
 * 0.1 us per array argument (each array is wrapped in a reference-counted meminfo and
 * released again) plus the allocation of the result, and a Python-level wrapper adds
 * another 0.1 us: together most of a 6-DOF inverse dynamics. The public functions made
 * here are builtin functions that read the numpy buffers directly and call the kernel's C
 * function pointer, a numba @cfunc defined in eslabon/_engine/fastcall.py. No arithmetic
 * and no validation beyond "can the kernel read this in place" lives in this file.
 *
 * public(address, n_in, out_ndims, header, stride, owner, general, name, doc, module,
 *        model_type, owner_extended=None, scratch_cols=0)
 *   address    the cfunc's address, or 0 to resolve it on the first lean call as
 *              owner.address (an entry compiled on first use: nothing is compiled when
 *              the function is made, and a call that takes the general path never
 *              compiles the entry); its C signature is
 *              int64 f(double *P, double *a, double *b, double *c,
 *                      double *out0, double *out1, double *out2)
 *              (unused pointers are NULL) and it returns ENTRY_OK on success, anything
 *              else otherwise (a numba cfunc that raises returns 0, so 0 cannot mean ok).
 *              An entry with 3 or more outputs has the wide signature
 *              int64 f(double *P, double *a, double *b, double *c, double *out0, ...,
 *                      double *out5, double *scratch)
 *   n_in       how many state arguments follow the model (1..3)
 *   out_ndims  a tuple with the shape code of each output (1 -> (nv,), 2 -> (nv, nv),
 *              3 -> (2 nv, 2 nv), 4 -> (2 nv, nv), 5 -> (6, nv), 6 -> (4, 4), 7 -> (6,),
 *              8 -> (3, nv), 9 -> (nv, k) with k the packed array's last value, a count
 *              its owner keeps there (the regressor's packed model: k = p, its
 *              parameters, eslabon/dynamics/regressor_kernel.py)); 1..9
 *   header, stride
 *              the packed-model layout (eslabon/_engine/layout.py): model.packed_dynamics
 *              (every public function is a per-degree-of-freedom quantity, so it reads
 *              the packed model with fixed joints folded, eslabon/model/fold.py) must hold
 *              header + (nb + 1) * stride values with nb = P[H_NB], nq = P[H_NQ], nv =
 *              P[H_NV]; both must be the layout this file was compiled with (layout.h,
 *              generated from layout.py: ESLABON_HEADER, ESLABON_STRIDE)
 *   owner      kept alive as long as the function (the cfunc owning the machine code,
 *              or the object whose .address compiles it)
 *   general    the Python function with the same parameters: the general path
 *   name, doc, module
 *              the builtin function's __name__, __doc__ (with a __text_signature__
 *              line) and __module__
 *   model_type only instances of exactly this type take the lean path: their packed
 *              array was built and validated by the model, and the kernels trust its
 *              inner fields (parents, joint indices); anything else goes to general
 *   scratch_cols
 *              0, or the columns of the kernel's workspace: the entry then gets, after
 *              its outputs (the last pointer of the wide signature), a scratch buffer of
 *              (nb + 1) * scratch_cols + nv + scratch_squares * nv * nv doubles (on the C
 *              stack up to SCRATCH_STACK, else from PyMem), so that it allocates nothing
 *              (an allocation cost 0.1-0.2 us per call of a 35-joint robot)
 *   scratch_squares
 *              how many (nv, nv) blocks the scratch buffer holds besides the workspace
 *   result_type
 *              None: the outputs are returned as they are (one array or a tuple);
 *              else result_type(*outputs) is returned (a named tuple)
 *   owner_extended
 *              the object whose .address is the entry compiled for the extended joint
 *              set (eslabon/_engine/joints.py, "Two joint sets"), called for a model
 *              whose packed header says so (P[H_EXTENDED] != 0); None: such models take the
 *              general path
 *   packed     the model's attribute holding the packed model ("packed_dynamics" unless
 *              given; "packed", every body, for the frames of the kinematics)
 *   frames     None, or (table, default, options, choices) for a quantity of one named
 *              frame (n_in 1, 2): the function takes, after its states, up to 2
 *              parameters, positional or by the keyword names in options: the frame's
 *              name (a str, `default` when not given), then a str among choices (the
 *              first when not given). model.<table> is a dict {frame name: float64
 *              (13,) array}: the packed row of the frame's body (an integer 0..nb) then
 *              the frame's placement on it (rotation row-major, origin); the entry gets
 *              it, then the index of the choice (14 doubles), as the input after the
 *              states, and with n_in 1 the choice alone as c. A frame not in
 *              the table, or anything else unexpected, takes the general path (which
 *              fills the table, or raises the error naming the frame)
 *
 * f(model, x1[, x2[, x3]]) with model.packed_dynamics (or model.<packed>) a packed
 * model, every x a float64, aligned, native-order, C-contiguous array of shape (nq,) for
 * x1 (the configuration) and (nv,) for the others, and no keyword arguments, runs the
 * kernel and returns its output array (or a tuple of them) when it reports status 0
 * (a frame function: f(model, q[, frame[, choice]]), keywords by those names allowed).
 * Anything else -- other types or shapes, keywords, a batch, a non-finite value (the
 * kernel's status) -- is handed to general(*args, **kwargs), which converts the input,
 * runs batches and raises errors naming the field. f.__self__.fast(model, x...) is the
 * lean path alone: None where f would hand over (for tests).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <string.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <structmember.h>

#include "layout.h" /* the packed header's offsets, generated from layout.py */

#define MAX_IN 3
#define MAX_OUT 6
#define NARROW_OUT 3         /* entries with fewer outputs have the 7-pointer signature */
#define ENTRY_OK 0x5AFE      /* eslabon._engine.fastcall.ENTRY_OK */
#define SCRATCH_STACK 4096   /* doubles of scratch on the C stack (32 KiB) */

typedef long long (*kernel_fn)(const double *P, const double *a, const double *b,
                               const double *c, double *out0, double *out1, double *out2);
typedef long long (*wide_fn)(const double *P, const double *a, const double *b,
                             const double *c, double *out0, double *out1, double *out2,
                             double *out3, double *out4, double *out5, double *scratch);

typedef struct {
    PyObject_HEAD
    kernel_fn fn;       /* NULL until resolved from owner.address (see public()) */
    kernel_fn fn_ext;   /* the same for owner_ext.address */
    int n_in;
    int n_out;
    int out_ndim[MAX_OUT];
    Py_ssize_t header;
    Py_ssize_t stride;
    Py_ssize_t scratch_cols;  /* 0: the entry takes no scratch buffer */
    Py_ssize_t scratch_squares;
    PyObject *result_type;    /* Py_None: the outputs as they are */
    PyObject *owner;
    PyObject *owner_ext;  /* Py_None: extended models take the general path */
    PyObject *general;
    PyObject *name;     /* str objects that def.ml_name and def.ml_doc point into */
    PyObject *doc;
    PyObject *modname;  /* the module where the function is public (for pickling) */
    PyObject *model_type;
    PyObject *packed;   /* the model's attribute holding the packed model (a str) */
    /* frame functions only (frame_table != NULL; see "frames" above) */
    PyObject *frame_table;    /* the model's attribute holding {frame name: placement} */
    PyObject *frame_default;  /* the frame when none is given */
    PyObject *options;        /* tuple of the parameter names after q (0..2) */
    PyObject *choices;        /* tuple of the values the second parameter takes */
    PyMethodDef def;
} Kernel;

#define MAX_OPTIONS 2
#define PLACEMENT 13         /* a frame's table entry: row, rotation (9), origin (3) */

static PyObject *str_packed;
static PyObject *str_address;

/* The function pointer of the entry for the model's joint set (ext: the extended one),
 * compiled on first use: the pointer, or NULL with an exception (the compilation
 * failed). */
static kernel_fn resolve(Kernel *self, int ext)
{
    kernel_fn *slot = ext ? &self->fn_ext : &self->fn;
    if (*slot != NULL)
        return *slot;
    PyObject *address = PyObject_GetAttr(ext ? self->owner_ext : self->owner, str_address);
    if (address == NULL)
        return NULL;
    void *ptr = PyLong_AsVoidPtr(address);
    Py_DECREF(address);
    if (ptr == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_RuntimeError, "eslabon: a compiled entry has no address");
        return NULL;
    }
    *slot = (kernel_fn)ptr;
    return *slot;
}

/* A float64 (n,) array the kernel can read in place. */
static inline int is_state(PyObject *o, npy_intp n)
{
    if (!PyArray_CheckExact(o))
        return 0;
    PyArrayObject *a = (PyArrayObject *)o;
    return PyArray_TYPE(a) == NPY_DOUBLE && PyArray_NDIM(a) == 1 && PyArray_DIM(a, 0) == n
           && PyArray_IS_C_CONTIGUOUS(a) && PyArray_ISALIGNED(a) && PyArray_ISNOTSWAPPED(a);
}

/* Whether the exact str `name` equals `want` (an interned str, usually the same object). */
static inline int same_name(PyObject *name, PyObject *want)
{
    return name == want || (PyUnicode_CheckExact(name) && PyUnicode_Compare(name, want) == 0);
}

/* A frame function's parameters after q (see "frames" above): a new reference to the
 * table entry of the frame (a float64 (13,) array whose row is 0..nb) and the index of
 * the choice; NULL without an exception set when they are not for the lean path (an
 * unknown keyword, a name twice, a frame not in the table, a choice not among choices). */
static PyObject *frame_entry(Kernel *self, PyObject *model, PyObject *const *args,
                             Py_ssize_t nargs, PyObject *kwnames, npy_intp nb, double *choice)
{
    Py_ssize_t n_opt = PyTuple_GET_SIZE(self->options), first = 1 + self->n_in;
    Py_ssize_t n_kw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    PyObject *opt[MAX_OPTIONS] = {NULL, NULL};
    if (nargs < first || nargs - first + n_kw > n_opt)
        return NULL;
    for (Py_ssize_t k = first; k < nargs; k++)
        opt[k - first] = args[k];
    for (Py_ssize_t j = 0; j < n_kw; j++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, j);
        Py_ssize_t k = 0;
        while (k < n_opt && !same_name(name, PyTuple_GET_ITEM(self->options, k)))
            k++;
        if (k == n_opt || opt[k] != NULL)
            return NULL;                 /* the general path raises the TypeError */
        opt[k] = args[nargs + j];
    }
    *choice = 0.0;
    if (opt[1] != NULL) {
        if (!PyUnicode_CheckExact(opt[1]))
            return NULL;
        Py_ssize_t n_choices = PyTuple_GET_SIZE(self->choices), k = 0;
        while (k < n_choices && !same_name(opt[1], PyTuple_GET_ITEM(self->choices, k)))
            k++;
        if (k == n_choices)
            return NULL;                 /* the general path names the choices */
        *choice = (double)k;
    }
    PyObject *frame = opt[0] != NULL ? opt[0] : self->frame_default;
    if (!PyUnicode_CheckExact(frame))
        return NULL;
    PyObject *table = PyObject_GetAttr(model, self->frame_table);
    if (table == NULL) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError))
            PyErr_Clear();
        return NULL;
    }
    PyObject *placed = PyDict_CheckExact(table) ? PyDict_GetItemWithError(table, frame) : NULL;
    Py_XINCREF(placed);
    Py_DECREF(table);
    if (placed == NULL)
        return NULL;                     /* (an error from a str key: none expected) */
    if (!PyArray_CheckExact(placed))
        goto refuse;
    PyArrayObject *a = (PyArrayObject *)placed;
    if (PyArray_TYPE(a) != NPY_DOUBLE || PyArray_NDIM(a) != 1 || PyArray_DIM(a, 0) != PLACEMENT
        || !PyArray_IS_C_CONTIGUOUS(a) || !PyArray_ISALIGNED(a) || !PyArray_ISNOTSWAPPED(a))
        goto refuse;
    double row = ((const double *)PyArray_DATA(a))[0];
    if (!(row >= 0.0 && row <= (double)nb && row == (double)(npy_intp)row))
        goto refuse;                     /* the kernel reads the workspace at this row */
    return placed;
refuse:
    Py_DECREF(placed);
    return NULL;
}

/* The lean path: a new reference to the result; NULL without an exception set when the
 * arguments are not for it (the caller then takes the general path); NULL with an
 * exception when memory runs out or the entry fails to compile on its first use. */
static PyObject *run_fast(Kernel *self, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames)
{
    PyObject *result = NULL;
    PyObject *placed = NULL;             /* a frame function's table entry */
    double choice = 0.0;
    if ((PyObject *)Py_TYPE(args[0]) != self->model_type)
        return NULL;
    PyObject *pm = PyObject_GetAttr(args[0], self->packed);
    if (pm == NULL) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError))
            PyErr_Clear();               /* the general path says what is missing */
        return NULL;
    }
    /* the packed model: float64, C-contiguous, of the length its header announces */
    if (!PyArray_CheckExact(pm))
        goto done;
    PyArrayObject *P = (PyArrayObject *)pm;
    if (PyArray_TYPE(P) != NPY_DOUBLE || PyArray_NDIM(P) != 1 || !PyArray_IS_C_CONTIGUOUS(P)
        || !PyArray_ISALIGNED(P) || !PyArray_ISNOTSWAPPED(P) || PyArray_DIM(P, 0) < self->header)
        goto done;
    const double *pd = (const double *)PyArray_DATA(P);
    /* rows nb, configuration size nq (q), tangent size nv (every other state, outputs) */
    double nb_f = pd[ESLABON_H_NB], nq_f = pd[ESLABON_H_NQ], nv_f = pd[ESLABON_H_NV];
    if (pd[ESLABON_H_MIMIC] != 0.0)
        goto done;                       /* mimic joints: the general path couples them */
    int ext = pd[ESLABON_H_EXTENDED] != 0.0; /* helical or ball joints: the extended entry */
    if (ext && self->owner_ext == Py_None)
        goto done;
    if (!(nb_f >= 0.0 && nb_f < 1e7 && nv_f >= 1.0 && nv_f <= nb_f && nq_f >= nv_f
          && nq_f <= nv_f + nb_f))
        goto done;
    npy_intp nb = (npy_intp)nb_f, nq = (npy_intp)nq_f, nv = (npy_intp)nv_f;
    if (PyArray_DIM(P, 0) != self->header + (nb + 1) * self->stride)
        goto done;

    const double *in[MAX_IN] = {NULL, NULL, NULL};
    for (int k = 0; k < self->n_in; k++) {
        if (!is_state(args[1 + k], k == 0 ? nq : nv))
            goto done;
        in[k] = (const double *)PyArray_DATA((PyArrayObject *)args[1 + k]);
    }
    double framed[PLACEMENT + 1];        /* a frame's table entry, then the choice */
    if (self->frame_table != NULL) {
        placed = frame_entry(self, args[0], args, nargs, kwnames, nb, &choice);
        if (placed == NULL)
            goto done;
        memcpy(framed, PyArray_DATA((PyArrayObject *)placed), PLACEMENT * sizeof(double));
        framed[PLACEMENT] = choice;
        in[self->n_in] = framed;
        if (self->n_in == 1)
            in[2] = &framed[PLACEMENT];
    }

    kernel_fn fn = resolve(self, ext);
    if (fn == NULL)
        goto done;                       /* the exception propagates */

    /* Only the entries in use are set, in the loops below: gcc compiled initialiser
     * lists of these arrays to `rep stos`, about 13 ns a call. */
    PyObject *out[MAX_OUT];
    double *od[MAX_OUT + 1];
    for (int k = 0; k < self->n_out; k++)
        out[k] = NULL;                   /* (for drop:) */
    for (int k = self->n_out; k <= MAX_OUT; k++)
        od[k] = NULL;
    /* shape code 9's column count: the packed array's last value */
    double last = pd[PyArray_DIM(P, 0) - 1];
    npy_intp cols9 = last >= 1.0 && last < 1e8 ? (npy_intp)last : 0;
    for (int k = 0; k < self->n_out; k++) {
        int code = self->out_ndim[k];
        if (code == 9 && (cols9 == 0 || (double)cols9 != last))
            goto drop;                   /* not a count: the general path */
        npy_intp dims[2] = {code == 3 || code == 4 ? 2 * nv
                            : code == 5 || code == 7 ? 6 : code == 6 ? 4 : code == 8 ? 3 : nv,
                            code == 3 ? 2 * nv : code == 6 ? 4 : code == 9 ? cols9 : nv};
        out[k] = PyArray_SimpleNew(code == 1 || code == 7 ? 1 : 2, dims, NPY_DOUBLE);
        if (out[k] == NULL)
            goto drop;
        od[k] = (double *)PyArray_DATA((PyArrayObject *)out[k]);
    }
    /* the entry's workspace, after its outputs (the wide signature's last pointer) */
    int wide = self->n_out >= NARROW_OUT;
    double stack[SCRATCH_STACK];
    double *heap = NULL;
    double *work = NULL;
    if (self->scratch_cols > 0) {
        npy_intp size = (nb + 1) * self->scratch_cols + nv + self->scratch_squares * nv * nv;
        if (size <= SCRATCH_STACK)
            work = stack;
        else if ((heap = PyMem_Malloc((size_t)size * sizeof(double))) != NULL)
            work = heap;
        else
            goto drop;                   /* no memory: the general path */
        if (!wide)
            od[self->n_out] = work;
    }
    long long status = wide ? ((wide_fn)fn)(pd, in[0], in[1], in[2], od[0], od[1], od[2],
                                            od[3], od[4], od[5], work)
                            : fn(pd, in[0], in[1], in[2], od[0], od[1], od[2]);
    PyMem_Free(heap);
    if (status != ENTRY_OK)
        goto drop;                       /* a status: the general path explains it */
    if (self->result_type != Py_None) {
        result = PyObject_Vectorcall(self->result_type, out, self->n_out, NULL);
        if (result == NULL)
            goto drop;
        for (int k = 0; k < self->n_out; k++)
            Py_DECREF(out[k]);
        goto done;
    }
    if (self->n_out == 1) {
        result = out[0];
        goto done;
    }
    result = PyTuple_New(self->n_out);
    if (result == NULL)
        goto drop;
    for (int k = 0; k < self->n_out; k++)
        PyTuple_SET_ITEM(result, k, out[k]);      /* steals the reference */
    goto done;
drop:
    for (int k = 0; k < self->n_out; k++)
        Py_XDECREF(out[k]);
done:
    Py_XDECREF(placed);
    Py_DECREF(pm);
    return result;
}

/* The public function: the lean path when it applies, else the general path. */
static PyObject *kernel_entry(PyObject *self_, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames)
{
    Kernel *self = (Kernel *)self_;
    if (self->frame_table != NULL ? nargs >= 1 + self->n_in
                                  : kwnames == NULL && nargs == 1 + self->n_in) {
        PyObject *r = run_fast(self, args, nargs, kwnames);
        if (r != NULL || PyErr_Occurred())
            return r;
    }
    if (self->general == NULL) {         /* cleared by the garbage collector */
        PyErr_SetString(PyExc_RuntimeError, "eslabon: this function is being torn down");
        return NULL;
    }
    return PyObject_Vectorcall(self->general, args, nargs, kwnames);
}

/* Kernel.fast(model, x...): the lean path alone, None where the entry hands over. */
static PyObject *kernel_fast(PyObject *self_, PyObject *const *args, Py_ssize_t nargs)
{
    Kernel *self = (Kernel *)self_;
    Py_ssize_t extra = self->frame_table == NULL ? 0 : PyTuple_GET_SIZE(self->options);
    if (nargs < 1 + self->n_in || nargs > 1 + self->n_in + extra) {
        PyErr_Format(PyExc_TypeError, "fast() expects %d to %zd arguments, got %zd",
                     1 + self->n_in, 1 + self->n_in + extra, nargs);
        return NULL;
    }
    PyObject *r = run_fast(self, args, nargs, NULL);
    if (r != NULL || PyErr_Occurred())
        return r;
    Py_RETURN_NONE;
}

static int kernel_traverse(Kernel *self, visitproc visit, void *arg)
{
    Py_VISIT(self->owner);
    Py_VISIT(self->owner_ext);
    Py_VISIT(self->general);
    Py_VISIT(self->model_type);
    Py_VISIT(self->result_type);
    return 0;
}

/* Only `general` can close a reference cycle (through its module); `owner` holds the
 * machine code that fn points to and goes only with the Kernel itself. */
static int kernel_clear(Kernel *self)
{
    Py_CLEAR(self->general);
    return 0;
}

static void kernel_dealloc(Kernel *self)
{
    PyObject_GC_UnTrack(self);
    kernel_clear(self);
    Py_CLEAR(self->owner);
    Py_CLEAR(self->owner_ext);
    Py_CLEAR(self->model_type);
    Py_CLEAR(self->result_type);
    Py_CLEAR(self->packed);
    Py_CLEAR(self->frame_table);
    Py_CLEAR(self->frame_default);
    Py_CLEAR(self->options);
    Py_CLEAR(self->choices);
    Py_CLEAR(self->name);       /* def points into these: released last */
    Py_CLEAR(self->doc);
    Py_CLEAR(self->modname);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A builtin function pickles as getattr(its __self__, its name); this Kernel pickles as
 * importlib.import_module(module), so the function unpickles as module.name: the live
 * public function, looked up by name like any Python function. */
static PyObject *kernel_reduce(PyObject *self_, PyObject *unused)
{
    Kernel *self = (Kernel *)self_;
    PyObject *importlib = PyImport_ImportModule("importlib");
    if (importlib == NULL)
        return NULL;
    PyObject *import_module = PyObject_GetAttrString(importlib, "import_module");
    Py_DECREF(importlib);
    if (import_module == NULL)
        return NULL;
    PyObject *r = Py_BuildValue("(N(O))", import_module, self->modname);
    return r;
}

static PyMethodDef kernel_methods[] = {
    {"__reduce__", kernel_reduce, METH_NOARGS, "pickled as its module (see the source)"},
    {"fast", (PyCFunction)(void (*)(void))kernel_fast, METH_FASTCALL,
     "fast(model, x...): the lean path alone; None where the function would hand over."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef kernel_members[] = {
    {"general", T_OBJECT, offsetof(Kernel, general), READONLY, "the general path"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "eslabon._engine._fastcall.Kernel",
    .tp_doc = "State of a compiled entry point (see the module source).",
    .tp_basicsize = sizeof(Kernel),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)kernel_traverse,
    .tp_clear = (inquiry)kernel_clear,
    .tp_dealloc = (destructor)kernel_dealloc,
    .tp_methods = kernel_methods,
    .tp_members = kernel_members,
};

static PyObject *make_public(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"address", "n_in", "out_ndims", "header", "stride", "owner",
                            "general", "name", "doc", "module", "model_type",
                            "owner_extended", "scratch_cols", "scratch_squares",
                            "result_type", "packed", "frames", NULL};
    PyObject *address, *ndims, *owner, *general, *name, *doc, *modname, *model_type;
    PyObject *owner_ext = Py_None, *result_type = Py_None, *packed = NULL, *frames = Py_None;
    PyObject *frame_table = NULL, *frame_default = NULL, *options = NULL, *choices = NULL;
    int n_in;
    Py_ssize_t header, stride, scratch_cols = 0, scratch_squares = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OiO!nnOOUUUO!|OnnOUO", names, &address,
                                     &n_in, &PyTuple_Type, &ndims, &header, &stride, &owner,
                                     &general, &name, &doc, &modname, &PyType_Type,
                                     &model_type, &owner_ext, &scratch_cols,
                                     &scratch_squares, &result_type, &packed, &frames))
        return NULL;
    if (frames != Py_None) {
        if (!PyTuple_Check(frames)) {
            PyErr_SetString(PyExc_TypeError, "frames: expected None or a tuple");
            return NULL;
        }
        if (!PyArg_ParseTuple(frames, "UUO!O!;frames: expected (table, default, options, "
                              "choices)", &frame_table, &frame_default, &PyTuple_Type,
                              &options, &PyTuple_Type, &choices))
            return NULL;
        Py_ssize_t n_opt = PyTuple_GET_SIZE(options), n_choices = PyTuple_GET_SIZE(choices);
        int strs = 1;
        for (Py_ssize_t k = 0; k < n_opt; k++)
            strs &= PyUnicode_CheckExact(PyTuple_GET_ITEM(options, k));
        for (Py_ssize_t k = 0; k < n_choices; k++)
            strs &= PyUnicode_CheckExact(PyTuple_GET_ITEM(choices, k));
        if (n_in > MAX_IN - 1 || n_opt > MAX_OPTIONS || !strs
            || (n_opt == MAX_OPTIONS) != (n_choices > 0)) {
            PyErr_SetString(PyExc_ValueError, "frames: a function of q (and q'), with at most 2 "
                            "options (str), choices (str) exactly when there are 2");
            return NULL;
        }
    }
    if (result_type != Py_None && !PyCallable_Check(result_type)) {
        PyErr_SetString(PyExc_TypeError, "result_type: expected None or a callable");
        return NULL;
    }
    PyObject *zero = PyLong_FromLong(0);
    int negative = zero == NULL ? -1 : (PyLong_Check(address)
                                        ? PyObject_RichCompareBool(address, zero, Py_LT) : 1);
    Py_XDECREF(zero);
    if (negative != 0) {
        if (negative > 0)
            PyErr_SetString(PyExc_ValueError, "address: expected a function address, or 0 "
                            "to resolve it from owner.address on first use");
        return NULL;
    }
    void *ptr = PyLong_AsVoidPtr(address);     /* 0: resolved on the first lean call */
    if (ptr == NULL && PyErr_Occurred())
        return NULL;
    Py_ssize_t n_out = PyTuple_GET_SIZE(ndims);
    if (n_in < 1 || n_in > MAX_IN) {
        PyErr_Format(PyExc_ValueError, "n_in: expected 1..%d, got %d", MAX_IN, n_in);
        return NULL;
    }
    if (n_out < 1 || n_out > MAX_OUT) {
        PyErr_Format(PyExc_ValueError, "out_ndims: expected 1..%d ranks, got %zd", MAX_OUT,
                     n_out);
        return NULL;
    }
    if (scratch_cols < 0 || scratch_squares < 0 || (scratch_cols == 0 && scratch_squares > 0)) {
        PyErr_SetString(PyExc_ValueError, "scratch_cols, scratch_squares: expected >= 0, "
                        "and squares only with a workspace");
        return NULL;
    }
    if (header != ESLABON_HEADER || stride != ESLABON_STRIDE) {
        PyErr_Format(PyExc_ValueError, "header, stride: expected %d, %d (layout.h)",
                     ESLABON_HEADER, ESLABON_STRIDE);
        return NULL;
    }
    if (!PyCallable_Check(general)) {
        PyErr_SetString(PyExc_TypeError, "general: expected a callable");
        return NULL;
    }
    int ranks[MAX_OUT] = {0, 0, 0, 0, 0, 0};
    for (Py_ssize_t k = 0; k < n_out; k++) {
        long r = PyLong_AsLong(PyTuple_GET_ITEM(ndims, k));
        if (r < 1 || r > 9) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "out_ndims: expected shape codes 1..9, got %ld",
                             r);
            return NULL;
        }
        ranks[k] = (int)r;
    }
    const char *name_c = PyUnicode_AsUTF8(name);
    const char *doc_c = PyUnicode_AsUTF8(doc);
    if (name_c == NULL || doc_c == NULL)
        return NULL;
    Kernel *self = PyObject_GC_New(Kernel, &KernelType);
    if (self == NULL)
        return NULL;
    self->fn = (kernel_fn)ptr;
    self->fn_ext = NULL;
    self->n_in = n_in;
    self->n_out = (int)n_out;
    for (int k = 0; k < MAX_OUT; k++)
        self->out_ndim[k] = ranks[k];
    self->header = header;
    self->stride = stride;
    self->scratch_cols = scratch_cols;
    self->scratch_squares = scratch_squares;
    Py_INCREF(result_type);
    self->result_type = result_type;
    Py_INCREF(owner);
    self->owner = owner;
    Py_INCREF(owner_ext);
    self->owner_ext = owner_ext;
    Py_INCREF(general);
    self->general = general;
    Py_INCREF(name);
    self->name = name;
    Py_INCREF(doc);
    self->doc = doc;
    Py_INCREF(modname);
    self->modname = modname;
    Py_INCREF(model_type);
    self->model_type = model_type;
    self->packed = packed != NULL ? packed : str_packed;
    Py_INCREF(self->packed);
    PyUnicode_InternInPlace(&self->packed);    /* (attribute look-ups compare pointers) */
    Py_XINCREF(frame_table);
    self->frame_table = frame_table;
    if (frame_table != NULL)
        PyUnicode_InternInPlace(&self->frame_table);
    Py_XINCREF(frame_default);
    self->frame_default = frame_default;
    Py_XINCREF(options);
    self->options = options;
    Py_XINCREF(choices);
    self->choices = choices;
    self->def.ml_name = name_c;
    self->def.ml_meth = (PyCFunction)(void (*)(void))kernel_entry;
    self->def.ml_flags = METH_FASTCALL | METH_KEYWORDS;
    self->def.ml_doc = doc_c;
    PyObject_GC_Track(self);
    /* the function holds a reference to self, so self->def outlives it */
    PyObject *fn = PyCFunction_NewEx(&self->def, (PyObject *)self, modname);
    Py_DECREF(self);
    return fn;
}

static PyMethodDef module_methods[] = {
    {"public", (PyCFunction)(void (*)(void))make_public, METH_VARARGS | METH_KEYWORDS,
     "public(address, n_in, out_ndims, header, stride, owner, general, name, doc, module, "
     "model_type, owner_extended=None, scratch_cols=0, scratch_squares=0, "
     "result_type=None, packed='packed_dynamics', frames=None)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef fastcall_module = {
    PyModuleDef_HEAD_INIT, "eslabon._engine._fastcall",
    "C entry points into eslabon's compiled kernels (see eslabon._engine.fastcall).", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit__fastcall(void)
{
    import_array();
    if (PyType_Ready(&KernelType) < 0)
        return NULL;
    str_packed = PyUnicode_InternFromString("packed_dynamics");
    str_address = PyUnicode_InternFromString("address");
    if (str_packed == NULL || str_address == NULL)
        return NULL;
    return PyModule_Create(&fastcall_module);
}
