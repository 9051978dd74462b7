/*
 * eslabon._fastcall: a thin CPython entry point into the compiled kernels.
 *
 * Why it exists (docs/performance.md, "Per call"): calling a numba dispatcher costs about
 * 0.1 us per array argument (each array is wrapped in a reference-counted meminfo and
 * released again) plus the allocation of the result, about 0.9 us for inverse dynamics,
 * which is most of a 6-DOF call. A Kernel object here reads the numpy buffers directly and
 * calls the kernel's C function pointer: a numba @cfunc defined in
 * eslabon/dynamics/fastcall.py. No arithmetic lives in this file.
 *
 * Kernel(address, n_in, out_ndims, header, stride, owner) -> callable
 *   address    the cfunc's address; its C signature is
 *              int64 f(double *P, double *a, double *b, double *c,
 *                      double *out0, double *out1, double *out2)
 *              (unused pointers are NULL) and it returns a status, 0 = ok.
 *   n_in       how many state arguments follow the packed model (1..3)
 *   out_ndims  a tuple with the rank of each output (1 -> (n,), 2 -> (n, n)); 1..3 outputs
 *   header, stride
 *              the packed-model layout (eslabon/model/layout.py): the model array must
 *              hold header + (nb + 1) * stride values with nb = P[0], nq = P[1]
 *   owner      any object, kept alive as long as the Kernel (the cfunc owning the code)
 *
 * kernel(P, x1[, x2[, x3]]) returns the output array (or a tuple of them) when P is a
 * packed model and every x is a float64, aligned, native-order, C-contiguous array of
 * shape (nq,), and the kernel reports status 0. Otherwise it returns None, and the
 * public Python function takes its general path, which converts the input, runs batches
 * and raises an error naming the field. A wrong number of arguments is a TypeError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#define MAX_IN 3
#define MAX_OUT 3

typedef long long (*kernel_fn)(const double *P, const double *a, const double *b,
                               const double *c, double *out0, double *out1, double *out2);

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    kernel_fn fn;
    int n_in;
    int n_out;
    int out_ndim[MAX_OUT];
    Py_ssize_t header;
    Py_ssize_t stride;
    PyObject *owner;
} Kernel;

/* A float64 (n,) array the kernel can read in place. */
static inline int is_state(PyObject *o, npy_intp n)
{
    if (!PyArray_CheckExact(o))
        return 0;
    PyArrayObject *a = (PyArrayObject *)o;
    return PyArray_TYPE(a) == NPY_DOUBLE && PyArray_NDIM(a) == 1 && PyArray_DIM(a, 0) == n
           && PyArray_IS_C_CONTIGUOUS(a) && PyArray_ISALIGNED(a) && PyArray_ISNOTSWAPPED(a);
}

static PyObject *kernel_vectorcall(PyObject *self_, PyObject *const *args, size_t nargsf,
                                   PyObject *kwnames)
{
    Kernel *self = (Kernel *)self_;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (kwnames != NULL || nargs != 1 + self->n_in) {
        PyErr_Format(PyExc_TypeError, "Kernel expects %d positional arguments, got %zd",
                     1 + self->n_in, nargs);
        return NULL;
    }
    /* the packed model: float64, C-contiguous, of the length its header announces */
    PyObject *pm = args[0];
    if (!PyArray_CheckExact(pm))
        Py_RETURN_NONE;
    PyArrayObject *P = (PyArrayObject *)pm;
    if (PyArray_TYPE(P) != NPY_DOUBLE || PyArray_NDIM(P) != 1 || !PyArray_IS_C_CONTIGUOUS(P)
        || !PyArray_ISALIGNED(P) || !PyArray_ISNOTSWAPPED(P) || PyArray_DIM(P, 0) < self->header)
        Py_RETURN_NONE;
    const double *pd = (const double *)PyArray_DATA(P);
    double nb_f = pd[0], nq_f = pd[1];
    if (!(nb_f >= 0.0 && nb_f < 1e7 && nq_f >= 1.0 && nq_f <= nb_f))
        Py_RETURN_NONE;
    npy_intp nb = (npy_intp)nb_f, nq = (npy_intp)nq_f;
    if (PyArray_DIM(P, 0) != self->header + (nb + 1) * self->stride)
        Py_RETURN_NONE;

    const double *in[MAX_IN] = {NULL, NULL, NULL};
    for (int k = 0; k < self->n_in; k++) {
        if (!is_state(args[1 + k], nq))
            Py_RETURN_NONE;
        in[k] = (const double *)PyArray_DATA((PyArrayObject *)args[1 + k]);
    }

    PyObject *out[MAX_OUT] = {NULL, NULL, NULL};
    double *od[MAX_OUT] = {NULL, NULL, NULL};
    npy_intp dims[2] = {nq, nq};
    for (int k = 0; k < self->n_out; k++) {
        out[k] = PyArray_SimpleNew(self->out_ndim[k], dims, NPY_DOUBLE);
        if (out[k] == NULL)
            goto fail;
        od[k] = (double *)PyArray_DATA((PyArrayObject *)out[k]);
    }
    if (self->fn(pd, in[0], in[1], in[2], od[0], od[1], od[2]) != 0) {
        for (int k = 0; k < self->n_out; k++)
            Py_DECREF(out[k]);
        Py_RETURN_NONE;
    }
    if (self->n_out == 1)
        return out[0];
    PyObject *tup = PyTuple_New(self->n_out);
    if (tup == NULL)
        goto fail;
    for (int k = 0; k < self->n_out; k++)
        PyTuple_SET_ITEM(tup, k, out[k]);      /* steals the reference */
    return tup;
fail:
    for (int k = 0; k < self->n_out; k++)
        Py_XDECREF(out[k]);
    return NULL;
}

static PyObject *kernel_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"address", "n_in", "out_ndims", "header", "stride", "owner", NULL};
    PyObject *address, *ndims, *owner;
    int n_in;
    Py_ssize_t header, stride;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OiO!nnO", names, &address, &n_in,
                                     &PyTuple_Type, &ndims, &header, &stride, &owner))
        return NULL;
    void *ptr = PyLong_AsVoidPtr(address);
    if (ptr == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "address: expected a non-null function address");
        return NULL;
    }
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
    if (header < 2 || stride < 1) {
        PyErr_SetString(PyExc_ValueError, "header, stride: expected header >= 2, stride >= 1");
        return NULL;
    }
    Kernel *self = (Kernel *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < n_out; k++) {
        long r = PyLong_AsLong(PyTuple_GET_ITEM(ndims, k));
        if (r != 1 && r != 2) {
            Py_DECREF(self);
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "out_ndims: expected ranks 1 or 2, got %ld", r);
            return NULL;
        }
        self->out_ndim[k] = (int)r;
    }
    self->vectorcall = kernel_vectorcall;
    self->fn = (kernel_fn)ptr;
    self->n_in = n_in;
    self->n_out = (int)n_out;
    self->header = header;
    self->stride = stride;
    Py_INCREF(owner);
    self->owner = owner;
    return (PyObject *)self;
}

static int kernel_traverse(Kernel *self, visitproc visit, void *arg)
{
    Py_VISIT(self->owner);
    return 0;
}

static int kernel_clear(Kernel *self)
{
    Py_CLEAR(self->owner);
    return 0;
}

static void kernel_dealloc(Kernel *self)
{
    PyObject_GC_UnTrack(self);
    kernel_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "eslabon._fastcall.Kernel",
    .tp_doc = "A compiled kernel called with numpy buffers (see the module source).",
    .tp_basicsize = sizeof(Kernel),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = kernel_new,
    .tp_traverse = (traverseproc)kernel_traverse,
    .tp_clear = (inquiry)kernel_clear,
    .tp_dealloc = (destructor)kernel_dealloc,
    .tp_vectorcall_offset = offsetof(Kernel, vectorcall),
    .tp_call = PyVectorcall_Call,
};

static struct PyModuleDef fastcall_module = {
    PyModuleDef_HEAD_INIT, "eslabon._fastcall",
    "C entry points into eslabon's compiled kernels (see eslabon.dynamics.fastcall).", -1,
    NULL,
};

PyMODINIT_FUNC PyInit__fastcall(void)
{
    import_array();
    if (PyType_Ready(&KernelType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&fastcall_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&KernelType);
    if (PyModule_AddObject(m, "Kernel", (PyObject *)&KernelType) < 0) {
        Py_DECREF(&KernelType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
