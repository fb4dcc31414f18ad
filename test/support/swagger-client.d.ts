// The part of swagger-client (which ships no types) the contract test uses: a client made from a
// description, its operations called by operationId.
declare module 'swagger-client' {
  export interface ClientResponse {
    url: string;
    status: number;
    headers: Record<string, string>;
    text: string;
  }
  export interface BuiltRequest {
    url: string;
    method: string;
    headers: Record<string, string>;
  }
  export interface ExecuteOptions {
    operationId?: string;
    pathName?: string;
    method?: string;
    parameters?: Record<string, unknown>;
    contextUrl?: string;
    securities?: { authorized: Record<string, { value: string }> };
  }
  export interface Client {
    spec: object;
    execute(options: ExecuteOptions): Promise<ClientResponse>;
  }
  export interface SwaggerClientStatic {
    new (options: { spec: object; url: string }): Promise<Client>;
    buildRequest(options: ExecuteOptions & { spec: object }): BuiltRequest;
  }
  const SwaggerClient: SwaggerClientStatic;
  export default SwaggerClient;
}
