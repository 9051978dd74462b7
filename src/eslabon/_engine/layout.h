/* The packed model's header offsets, for the C entry (_fastcall.c).
 * Generated from eslabon/_engine/layout.py by
 *     python -m eslabon._engine.layout --c-header
 * Do not edit: a test checks that this file is what the generator writes. */
#ifndef ESLABON_LAYOUT_H
#define ESLABON_LAYOUT_H

#define ESLABON_HEADER 8
#define ESLABON_STRIDE 40
#define ESLABON_H_NB 0
#define ESLABON_H_NQ 1
#define ESLABON_H_GRAVITY 2
#define ESLABON_H_NV 5
#define ESLABON_H_MIMIC 6
#define ESLABON_H_EXTENDED 7

#endif /* ESLABON_LAYOUT_H */
