import {
  type DirectiveNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  isAbstractType,
  isObjectType,
  Kind,
  type NamedTypeNode,
  type SelectionSetNode,
} from 'graphql';
import { type Shape, shapeOf } from './shapes.ts';

/**
 * Walks what a field selects below a table's type into a plan: the stored properties its nodes
 * need and, per list field, the plan of the items. Named and inline fragments are followed, every
 * field node of the response key is taken (the same field under two aliases selects the union of
 * both), `__typename` and the fields no declaration knows add nothing, and @skip/@include are
 * applied with the operation's variables.
 */

export type Plan = {
  readonly shape: Shape;
  /** Stored properties the selection reads, beside the type's `always`. */
  readonly properties: Set<string>;
  /** Per list field, the plan of its items. */
  readonly lists: Map<string, Plan>;
  /** Whether fields no declaration knows are selected (left to their resolvers; `__typename` aside). */
  others: boolean;
};

export const emptyPlan = (shape: Shape): Plan => ({ shape, properties: new Set(), lists: new Map(), others: false });

type Walk = {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  /** Whether a directive read a variable: the plan then holds for these variables only. */
  variable: boolean;
};

/** Whether @skip/@include leave the selection in. */
function included(walk: Walk, directives: readonly DirectiveNode[] | undefined): boolean {
  for (const directive of directives ?? []) {
    const name = directive.name.value;
    if (name !== 'skip' && name !== 'include') continue;
    const argument = directive.arguments?.find((arg) => arg.name.value === 'if');
    if (!argument) continue;
    let value: unknown;
    if (argument.value.kind === Kind.BOOLEAN) value = argument.value.value;
    else if (argument.value.kind === Kind.VARIABLE) {
      walk.variable = true;
      value = walk.variables[argument.value.name.value];
    } else continue;
    if (name === 'skip' && value === true) return false;
    if (name === 'include' && value === false) return false;
  }
  return true;
}

/** Whether a fragment's type condition holds for the type (the type itself, or an interface or union of it). */
function applies(walk: Walk, condition: NamedTypeNode | undefined, type: string): boolean {
  if (!condition || condition.name.value === type) return true;
  const named = walk.schema.getType(condition.name.value);
  const object = walk.schema.getType(type);
  return !!named && isAbstractType(named) && isObjectType(object) && walk.schema.isSubType(named, object);
}

function walkSelections(walk: Walk, selectionSet: SelectionSetNode | undefined, plan: Plan): void {
  for (const selection of selectionSet?.selections ?? []) {
    if (!included(walk, selection.directives)) continue;
    switch (selection.kind) {
      case Kind.FIELD:
        walkField(walk, selection, plan);
        break;
      case Kind.INLINE_FRAGMENT:
        if (applies(walk, selection.typeCondition, plan.shape.type)) walkSelections(walk, selection.selectionSet, plan);
        break;
      case Kind.FRAGMENT_SPREAD: {
        const fragment = walk.fragments[selection.name.value];
        if (fragment && applies(walk, fragment.typeCondition, plan.shape.type)) walkSelections(walk, fragment.selectionSet, plan);
        break;
      }
    }
  }
}

function walkField(walk: Walk, field: FieldNode, plan: Plan): void {
  const use = plan.shape.fields.get(field.name.value);
  if (!use) {
    // A field its own resolver answers (or __typename, which needs nothing).
    if (field.name.value !== '__typename') plan.others = true;
    return;
  }
  if ('reads' in use) {
    for (const property of use.reads) plan.properties.add(property);
    return;
  }
  let items = plan.lists.get(use.list);
  if (!items) {
    items = emptyPlan(shapeOf(plan.shape.lists.get(use.list)!.child));
    plan.lists.set(use.list, items);
  }
  walkSelections(walk, field.selectionSet, items);
}

/**
 * Plans, kept by what they were walked from: the field node when the response key has one (its
 * document is cached, and with it the node), else graphql-jit's list of them, which it keeps for
 * the compiled document (graphql-js makes a new one each time: a miss, never a wrong plan). A plan
 * that read a variable is not kept.
 */
const plans = new WeakMap<object, Plan>();

/** The plan of what the resolved field selects below `type`. */
export function planOf(info: GraphQLResolveInfo, type: string): Plan {
  const key: object = info.fieldNodes.length === 1 ? info.fieldNodes[0]! : info.fieldNodes;
  const shape = shapeOf(type);
  const kept = plans.get(key);
  if (kept && kept.shape === shape) return kept;
  const walk: Walk = { schema: info.schema, fragments: info.fragments, variables: info.variableValues ?? {}, variable: false };
  const plan = emptyPlan(shape);
  // graphql-jit hands over every node of the response key, each with its own directives.
  for (const node of info.fieldNodes) if (included(walk, node.directives)) walkSelections(walk, node.selectionSet, plan);
  if (!walk.variable) plans.set(key, plan);
  return plan;
}
