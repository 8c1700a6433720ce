// The contract every op module implements: its fields, kinds, margin and CPU kernel.
import type { Schema } from '../style/fields.js';
import type { Canvas, Features, Kind, RGBA, Raster, ScalarField, ScalarValue, Value, ValueOf, Window } from '../types.js';
import type { CompiledExpr, ExprType } from '../expr/index.js';
import type { SourceRegistry } from '../sources/types.js';
import type { GpuOp } from '../backends/gpu/encoder.js';
import type { Handle } from '../backends/backend.js';

/** A node as written in the style (after function inlining: refs point at plan node ids). */
export type NodeSpec = { op: string } & Record<string, unknown>;

/** Static upper bound of a field: literal, `$param` max, or `<field>-max`; undefined if none exists. */
export type BoundOf = (field: string) => number | undefined;

export interface OpDef {
  name: string;
  description: string;
  /** Output kind, possibly depending on the node's fields (e.g. circle `kind`). */
  output: Kind | ((node: NodeSpec) => Kind);
  /** Fields holding `@node` inputs, with the kinds each accepts. */
  inputs: Record<string, readonly Kind[]>;
  /** JSON Schema of the node's fields (without `op`). */
  fields: Record<string, Schema>;
  required?: string[];
  /** Fields that determine padding: each needs a static bound (spec §7). */
  paddingFields?: string[];
  /**
   * How far beyond this node's canvas its inputs must reach, in pixels, for the given input field.
   * Default 0 (a pointwise op).
   */
  pad?(bound: BoundOf, inputField: string, node: NodeSpec): number;
  /**
   * For a padding field whose value a render knows before it runs (a `$param`): the smallest bound
   * for which the kernel draws the same pixels as with the static `bound`, given the `value` it
   * uses (both in render pixels where the field is in px). The render then sizes its pads, and
   * through them the canvases upstream, from it, and ctx.bound returns it (src/graph/margins.ts).
   * Only for ops whose kernel uses the bound for nothing but where its input's pad lies and reads
   * no farther than `pad` of the returned bound. Undefined (or absent): the static bound.
   */
  valueBound?(field: string, value: number, bound: number, node: NodeSpec): number | undefined;
  /**
   * Whether a node's pixels depend on its canvas, not only on its inputs within its pad: on its
   * extent (Floyd-Steinberg error diffusion) or on its origin (brush strokes place their dabs in
   * canvas coordinates, so their rounding moves with it): its canvas keeps the plan's margin in
   * every render (src/graph/margins.ts).
   */
  keepsCanvas?(node: NodeSpec): boolean;
  /**
   * For an input read only through what that node publishes (ctx.published: a text node's placed
   * labels, read by the nodes that avoid it), how far beyond this node's canvas the input must
   * have decided, in pixels. The input's inputs then reach that far; its own canvas does not grow.
   * Undefined for inputs read as values (their canvas grows by `pad`).
   */
  reach?(bound: BoundOf, inputField: string, node: NodeSpec): number | undefined;
  /**
   * Input fields of kind features read only as whole features or tile pieces when the input has
   * them (Features.whole, Features.pieces), their groups then never read: a `features` node read
   * only through such fields samples no groups where its source gives either (build.ts,
   * PlanNode.groupsUnread).
   */
  readsWhole?: readonly string[];
  /**
   * The channels of a raster input this op reads (bits 1 R, 2 G, 4 B, 8 A), where it reads fewer
   * than all four (displace reads R, G and A of its displacement): a node all of whose readers
   * read fewer may leave the others unset (build.ts, PlanNode.channelsRead). Undefined: all.
   */
  readsChannels?(inputField: string, node: NodeSpec): number | undefined;
  /**
   * Demand (src/graph/demand.ts): for an input whose pixels this op's output depends on only where
   * some of its other inputs allow it (displace: a displacement pixel moves nothing where the input
   * is one value within the amplitude of it), the other inputs that decide it: the render computes
   * them first. Undefined: every pixel of that input is read.
   */
  demandFrom?(inputField: string, node: NodeSpec): readonly string[] | undefined;
  /**
   * With demandFrom: marks in `mask` (one byte a pixel of `maskCanvas`, world-anchored like every
   * canvas) each pixel of input `inputField` whose value can change this node's output, given its
   * other inputs (`read`: a node input's value and the canvas it has; ctx: this node's context, its
   * scalar fields only). Unmarked pixels may hold any finite value. Returns false where it cannot
   * tell (every pixel is then read).
   */
  demand?(inputField: string, ctx: OpContext, read: (field: string) => { value: Value; canvas: Canvas }, mask: Uint8Array, maskCanvas: Canvas): boolean;
  /**
   * Whether a node's kernel computes only the pixels its readers demand (OpContext.demand), the
   * others finite: for any canvas, or (with `canvas`) for that one (a render asks before it marks).
   */
  honoursDemand?(node: NodeSpec, canvas?: Canvas): boolean;
  /** For an op of kind scalar: the type of the value it emits (default number); build checks the ports it feeds. */
  scalarType?(node: NodeSpec): 'number' | 'color' | 'bool';
  /** The assets a node reads through the host's loader beyond its `x-asset` fields (a text node's fonts, default included): hosts serve them (the preview's data route). */
  assetRefs?(node: NodeSpec): string[];
  /** Extra checks at build time (beyond the schema), returning problem sentences keyed by field. */
  check?(node: NodeSpec): { field: string; message: string }[];
  /** The CPU kernel (the reference implementation). */
  cpu?(ctx: OpContext): Value | Promise<Value>;
  /**
   * What this node publishes, decided without drawing anything and in more detail than a render
   * keeps (a text node: every candidate label, placed or not). For hosts that show a node's
   * decisions (the workbench's label boxes) through `decide` (src/render/render.ts).
   */
  decide?(ctx: OpContext): Promise<unknown>;
  /** The GPU pass(es) of a raster op (`gpu.ts` beside it; its WGSL is `<op>.wgsl` in the op's folder). Without it a GPU render runs `cpu` and uploads the result. */
  gpu?: GpuOp;
  /**
   * A paint op (features drawn source-over onto a transparent canvas) that can paint onto
   * `ctx.target` instead: a `normal` blend of it over a base then needs no layer canvas and no
   * blend pass (source-over is associative, so the result is the same).
   */
  paintsOnto?: boolean;
  /**
   * For a compositing op: when this node is a plain source-over of one input onto another (blend
   * `normal`, composite `over`, opacity 1, no mask, no clip), the fields holding the base and the
   * layer painted onto it. The plan then fuses a `paintsOnto` layer read by nothing else into
   * painting straight onto the base.
   */
  fusesPaint?(node: NodeSpec): { base: string; paint: string } | undefined;
}

/** What a kernel sees while it runs. */
export interface OpContext {
  /** Plan node id (function body nodes are `call/body`). */
  id: string;
  node: NodeSpec;
  /** This node's canvas (the window grown by this node's margin). */
  canvas: Canvas;
  /**
   * The canvas this node has with the plan's margin (from the params' maxima), which holds
   * `canvas`: a kernel whose values round relative to its canvas's origin (simplex noise's local
   * coordinates) anchors there, so the smaller canvas of a render sized by its values
   * (src/graph/margins.ts) gets the same bits. Absent: `canvas` itself.
   */
  planCanvas?: Canvas;
  /** The requested window. */
  window: Window;
  zoom: number;
  /** The value of a node input, cropped to this node's canvas grown by `grow` pixels (default: this op's pad for that field). */
  input<K extends Kind>(field: string, grow?: number): ValueOf<K>;
  /** The session's handle of a node input (a CPU value or a device value), cropped like input(). For GPU passes (GpuEncoder.input). */
  handle(field: string, grow?: number): Handle;
  /** Whether a node input is wired. */
  has(field: string): boolean;
  /**
   * A scalar field as a number: literal, `$param` or `@node`, clamped to its padding bound; the
   * fallback, else the schema default, when unset. A field declared `unit: 'px'` comes in render
   * pixels (times the window's pixel ratio), its fallback and default too.
   */
  num(field: string, fallback?: number): number;
  /** A literal list of numbers (an `[x, y]` offset), or its schema default; in render pixels when the field's unit is `px`. */
  nums(field: string): number[] | undefined;
  color(field: string, fallback?: RGBA): RGBA;
  bool(field: string, fallback?: boolean): boolean;
  /** Resolve a table entry (literal or `$param`). */
  resolve(value: unknown): ScalarValue;
  /** Static bound of a padding field (from build); in render pixels when the field's unit is `px`. */
  bound(field: string): number;
  /** A compiled `*-expr` field, or undefined if the node does not set it; its numbers in render pixels when its unit is `px`. */
  expr(field: string): CompiledExpr | undefined;
  sources: SourceRegistry;
  signal?: AbortSignal;
  /** How far beyond its canvas this node must decide what it publishes (PlanNode.reach), pixels at the window's ratio. */
  reach?: number;
  /** Publish what this node decided beside its value (a text node: its placed labels), for the nodes that read it through `published`. */
  publish?(data: unknown): void;
  /** What the node wired at `field` published (undefined when it published nothing). */
  published?(field: string): unknown;
  /** For ops with `paintsOnto`: paint onto this canvas-sized raster (owned by the op) instead of a new transparent one. */
  target?: Raster;
  /**
   * `raster`, the value ctx.input gave for `field`, handed to the op to write its output into (an
   * op whose every pixel reads its inputs at that pixel only: blend), where nothing else reads it:
   * this node is its last reader, it is not the render's output, nothing else holds its storage
   * (the node cache, another result), and no other input of this node shares it; or a fresh crop
   * made for this node. Undefined otherwise, and on backends that do not paint onto targets (the
   * GPU). Once handed over, the storage is the op's: the render never releases it as an input.
   */
  takeInput?(field: string, raster: Raster): Raster | undefined;
  /** A `features` node whose readers all read whole features or pieces where there are some (PlanNode.groupsUnread). */
  groupsUnread?: boolean;
  /** The channels of this raster node its readers read (bits 1 R, 2 G, 4 B, 8 A; PlanNode.channelsRead): the others may hold anything. Undefined: all. */
  channels?: number;
  /**
   * For an op with honoursDemand: the pixels its readers can see (src/graph/demand.ts), as runs of
   * three ints (row, first column, count; rows ascending, runs apart): the others may hold any
   * finite value. Undefined: every pixel.
   */
  demand?: Int32Array;
}

export type { Features, Raster, ScalarField, CompiledExpr, ExprType };
