/**
 * Validates what goes over the wire against Trunk's published OpenAPI 3.1 files, so that the
 * simulators and the client are held to Trunk's contract rather than to our own reading of it.
 *
 * The specs are verbatim copies in `test/fixtures/openapi/` (provenance in its README.md), so a clone
 * tests on its own. Each OpenAPI document is registered whole with ajv, and every schema is compiled as a
 * `$ref` into it: `#/components/...` references (v2) then resolve the same way they do in the spec.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';

// ajv-formats is CommonJS: under ESM the default import is `module.exports`, whose `default` is the plugin.
const addFormats = ajvFormats.default;

export type TrunkApiVersion = 'v1' | 'v2';

export const specDirectory = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
  'openapi',
);

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
}

interface MediaType {
  schema?: unknown;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

export interface OpenApi {
  readonly version: TrunkApiVersion;
  /** The path template (as written in the spec) that a concrete request path matches, if any. */
  matchPath(method: string, concretePath: string): string | undefined;
  /** Errors of a response body against (method, path template, status); empty when valid. */
  checkResponse(
    method: string,
    pathTemplate: string,
    status: number,
    body: unknown,
    contentType?: string,
  ): string[];
  /** Errors of a JSON request body against (method, path template); empty when valid. */
  checkRequestBody(method: string, pathTemplate: string, body: unknown): string[];
  /** Errors of query parameters: each one's schema, required ones present, unknown ones flagged. */
  checkQuery(method: string, pathTemplate: string, query: URLSearchParams): string[];
}

const documentId = (version: TrunkApiVersion): string =>
  `https://trunk-openapi.test/${version}.json`;

/** JSON Pointer escaping (RFC 6901) of one segment. */
const pointerSegment = (segment: string): string =>
  segment.replaceAll('~', '~0').replaceAll('/', '~1');

const describeErrors = (where: string, errors: ErrorObject[] | null | undefined): string[] =>
  (errors ?? []).map((error) =>
    `${where}${error.instancePath || ''} ${error.message ?? 'is invalid'}`.trim(),
  );

/** Query values are strings on the wire: coerce them to the parameter's declared scalar type first. */
function coerceQueryValue(raw: string, schema: unknown): unknown {
  const type = (schema as { type?: unknown } | undefined)?.type;
  if (type === 'integer' || type === 'number') return raw.trim() === '' ? raw : Number(raw);
  if (type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
  return raw;
}

function templateToRegExp(template: string): RegExp {
  const escaped = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${escaped}$`);
}

class OpenApiValidator implements OpenApi {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(
    readonly version: TrunkApiVersion,
    private readonly doc: OpenApiDocument,
  ) {
    addFormats(this.ajv);
    this.ajv.addSchema({ ...doc, $id: documentId(version) } as object, undefined, undefined, false);
  }

  matchPath(method: string, concretePath: string): string | undefined {
    const path = concretePath.split('?')[0] ?? concretePath;
    const templates = Object.keys(this.doc.paths).filter((template) =>
      this.operationOf(method, template),
    );
    // A literal template beats one with parameters (`/v2/tests` before `/v2/tests/{id}` style clashes).
    return (
      templates.find((template) => template === path) ??
      templates.find((template) => templateToRegExp(template).test(path))
    );
  }

  checkResponse(
    method: string,
    pathTemplate: string,
    status: number,
    body: unknown,
    contentType?: string,
  ): string[] {
    const operation = this.operationOf(method, pathTemplate);
    if (!operation)
      return [`${method.toUpperCase()} ${pathTemplate} is not in the ${this.version} spec`];
    const statusKey = this.responseKey(operation, status);
    if (!statusKey)
      return [`${method.toUpperCase()} ${pathTemplate}: status ${status} is not documented`];
    const content = operation.responses?.[statusKey]?.content;
    if (!content)
      return body === undefined || body === '' ? [] : [`status ${status} documents no body`];
    const mediaType = this.pickMediaType(content, body, contentType);
    if (!mediaType)
      return [`status ${status}: content type ${contentType ?? typeof body} is not documented`];
    const pointer = [
      'paths',
      pathTemplate,
      method.toLowerCase(),
      'responses',
      statusKey,
      'content',
      mediaType,
      'schema',
    ];
    return this.validate(pointer, body, 'response');
  }

  checkRequestBody(method: string, pathTemplate: string, body: unknown): string[] {
    const operation = this.operationOf(method, pathTemplate);
    if (!operation)
      return [`${method.toUpperCase()} ${pathTemplate} is not in the ${this.version} spec`];
    if (!operation.requestBody?.content?.['application/json']) {
      return body === undefined
        ? []
        : [`${method.toUpperCase()} ${pathTemplate} takes no JSON body`];
    }
    const pointer = [
      'paths',
      pathTemplate,
      method.toLowerCase(),
      'requestBody',
      'content',
      'application/json',
      'schema',
    ];
    return this.validate(pointer, body, 'request body');
  }

  checkQuery(method: string, pathTemplate: string, query: URLSearchParams): string[] {
    const operation = this.operationOf(method, pathTemplate);
    if (!operation)
      return [`${method.toUpperCase()} ${pathTemplate} is not in the ${this.version} spec`];
    const parameters = operation.parameters ?? [];
    const declared = parameters.filter((parameter) => parameter.in === 'query');
    const errors: string[] = [];
    for (const name of new Set(query.keys())) {
      if (!declared.some((parameter) => parameter.name === name))
        errors.push(`query parameter ${name} is unknown`);
    }
    declared.forEach((parameter) => {
      const values = query.getAll(parameter.name);
      if (values.length === 0) {
        if (parameter.required) errors.push(`query parameter ${parameter.name} is required`);
        return;
      }
      if (values.length > 1) errors.push(`query parameter ${parameter.name} is repeated`);
      const index = parameters.indexOf(parameter);
      const pointer = [
        'paths',
        pathTemplate,
        method.toLowerCase(),
        'parameters',
        String(index),
        'schema',
      ];
      errors.push(
        ...this.validate(
          pointer,
          coerceQueryValue(values[0] ?? '', parameter.schema),
          `query ${parameter.name}`,
        ),
      );
    });
    return errors;
  }

  private operationOf(method: string, pathTemplate: string): Operation | undefined {
    return this.doc.paths[pathTemplate]?.[method.toLowerCase()];
  }

  private responseKey(operation: Operation, status: number): string | undefined {
    const responses = operation.responses ?? {};
    const exact = String(status);
    const range = `${exact[0]}XX`;
    return [exact, range, range.toLowerCase(), 'default'].find((key) => key in responses);
  }

  /** The media type to validate against: the one named, else JSON for parsed bodies, text for strings. */
  private pickMediaType(
    content: Record<string, MediaType>,
    body: unknown,
    contentType?: string,
  ): string | undefined {
    const types = Object.keys(content);
    if (contentType) {
      const bare = contentType.split(';')[0]?.trim().toLowerCase();
      return types.find((type) => type.toLowerCase() === bare);
    }
    const isJson = (type: string): boolean => /[/+]json$/i.test(type);
    return typeof body === 'string'
      ? (types.find((type) => !isJson(type)) ?? types[0])
      : types.find(isJson);
  }

  private validate(pointer: string[], value: unknown, where: string): string[] {
    const ref = `${documentId(this.version)}#/${pointer.map(pointerSegment).join('/')}`;
    let validateFunction = this.compiled.get(ref);
    if (!validateFunction) {
      validateFunction = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validateFunction);
    }
    return validateFunction(value) ? [] : describeErrors(where, validateFunction.errors);
  }
}

const cache = new Map<TrunkApiVersion, OpenApi>();

/** Trunk's OpenAPI file for `version`, parsed once per process. */
export function loadOpenApi(version: TrunkApiVersion): OpenApi {
  let api = cache.get(version);
  if (!api) {
    const file = resolve(specDirectory, `trunk-openapi-${version}.json`);
    api = new OpenApiValidator(version, JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument);
    cache.set(version, api);
  }
  return api;
}
