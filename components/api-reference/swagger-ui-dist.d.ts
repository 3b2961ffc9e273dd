/** The part of Swagger UI's prebuilt bundle (swagger-ui-dist, no types of its own) that api-reference.tsx uses. */
declare module "swagger-ui-dist/swagger-ui-es-bundle.js" {
  /** The bundle's own React (createElement and Fragment are all a plugin here needs). */
  interface SwaggerSystem {
    React: { createElement: (type: unknown, props: object | null, ...children: unknown[]) => unknown; Fragment: unknown };
  }
  type SwaggerComponent = (props: object) => unknown;
  /** A plugin that wraps named components: each wrapper gets the original and the system. */
  export type SwaggerPlugin = () => { wrapComponents: Record<string, (Original: SwaggerComponent, system: SwaggerSystem) => SwaggerComponent> };
  interface SwaggerUIOptions {
    domNode: HTMLElement;
    url: string;
    deepLinking?: boolean;
    docExpansion?: "list" | "full" | "none";
    displayOperationId?: boolean;
    displayRequestDuration?: boolean;
    defaultModelsExpandDepth?: number;
    queryConfigEnabled?: boolean;
    validatorUrl?: string | null;
    tryItOutEnabled?: boolean;
    persistAuthorization?: boolean;
    plugins?: SwaggerPlugin[];
  }
  const SwaggerUI: (options: SwaggerUIOptions) => unknown;
  export default SwaggerUI;
}
