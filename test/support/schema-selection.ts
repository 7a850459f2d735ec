import { type GraphQLField, GraphQLList, GraphQLNonNull, GraphQLObjectType, type GraphQLOutputType } from 'graphql';

/** The object or scalar type under lists and non-nulls. */
export const namedType = (type: GraphQLOutputType): GraphQLOutputType =>
  type instanceof GraphQLNonNull || type instanceof GraphQLList ? namedType(type.ofType) : type;

/** A field a query can select without arguments. */
export const withoutRequiredArgs = (field: GraphQLField<unknown, unknown>) =>
  field.args.every((arg) => !(arg.type instanceof GraphQLNonNull) || arg.defaultValue !== undefined);

/** Every field of the type that needs no argument, recursively (the schema has no cycles): a dashboard's whole query of it. */
export function fullSelection(type: GraphQLObjectType): string {
  return Object.values(type.getFields())
    .filter(withoutRequiredArgs)
    .map((field) => {
      const target = namedType(field.type);
      return target instanceof GraphQLObjectType ? `${field.name} { ${fullSelection(target)} }` : field.name;
    })
    .join(' ');
}
