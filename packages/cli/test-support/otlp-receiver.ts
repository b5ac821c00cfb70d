// A local OTLP/HTTP trace receiver for the CLI's tracing tests: it accepts POST /v1/traces on
// 127.0.0.1 and decodes the protobuf body (ExportTraceServiceRequest) into plain spans, with a wire
// format reader that knows only the fields these tests look at.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as the receiver decoded it. */
export interface ReceivedSpan {
  readonly name: string;
  readonly traceId: string;
  readonly spanId: string;
  /** Empty for a root span. */
  readonly parentSpanId: string;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  /** `2` is ERROR (OTLP's StatusCode). */
  readonly statusCode: number;
  readonly resource: Readonly<Record<string, string | number | boolean>>;
}

/** A running receiver. */
export interface OtlpReceiver {
  /** `http://127.0.0.1:PORT`: the value for OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly endpoint: string;
  readonly spans: ReceivedSpan[];
  readonly requests: Array<{ path: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

/** Starts a receiver on a free port of 127.0.0.1. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: OtlpReceiver['requests'] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ path: request.url ?? '', headers: request.headers });
      if (request.url === '/v1/traces' && request.headers['content-type'] === 'application/x-protobuf')
        spans.push(...decodeTraceRequest(Buffer.concat(chunks)));
      // An empty ExportTraceServiceResponse: full success.
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Field {
  readonly number: number;
  readonly value: Buffer | bigint;
}

function decodeTraceRequest(body: Buffer): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of messages(body, 1)) {
    const resource = keyValues([...messages(resourceSpans, 1)][0] ?? Buffer.alloc(0), 1);
    for (const scopeSpans of messages(resourceSpans, 2)) {
      for (const span of messages(scopeSpans, 2)) {
        const fields = readFields(span);
        const bytes = (number: number): Buffer =>
          (fields.find((field) => field.number === number)?.value as Buffer | undefined) ?? Buffer.alloc(0);
        const status = readFields(bytes(15)).find((field) => field.number === 3)?.value;
        spans.push({
          name: bytes(5).toString('utf8'),
          traceId: bytes(1).toString('hex'),
          spanId: bytes(2).toString('hex'),
          parentSpanId: bytes(4).toString('hex'),
          attributes: keyValues(span, 9),
          statusCode: typeof status === 'bigint' ? Number(status) : 0,
          resource,
        });
      }
    }
  }
  return spans;
}

// KeyValue { key = 1; AnyValue value = 2 }, AnyValue { string = 1; bool = 2; int = 3; double = 4 }.
function keyValues(message: Buffer, fieldNumber: number): Record<string, string | number | boolean> {
  const attributes: Record<string, string | number | boolean> = {};
  for (const pair of messages(message, fieldNumber)) {
    const fields = readFields(pair);
    const key = (fields.find((field) => field.number === 1)?.value as Buffer | undefined)?.toString('utf8') ?? '';
    const value = readFields(
      (fields.find((field) => field.number === 2)?.value as Buffer | undefined) ?? Buffer.alloc(0),
    )[0];
    if (value === undefined) continue;
    if (value.number === 1) attributes[key] = (value.value as Buffer).toString('utf8');
    else if (value.number === 2) attributes[key] = value.value === 1n;
    else if (value.number === 3) attributes[key] = Number(value.value);
    else if (value.number === 4) attributes[key] = (value.value as Buffer).readDoubleLE(0);
  }
  return attributes;
}

function* messages(message: Buffer, fieldNumber: number): Generator<Buffer> {
  for (const field of readFields(message))
    if (field.number === fieldNumber && Buffer.isBuffer(field.value)) yield field.value;
}

function readFields(message: Buffer): Field[] {
  const fields: Field[] = [];
  let offset = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = message[offset++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (offset < message.length) {
    const key = Number(varint());
    const number = key >> 3;
    const wire = key & 7;
    if (wire === 0) fields.push({ number, value: varint() });
    else if (wire === 1 || wire === 5) {
      const size = wire === 1 ? 8 : 4;
      fields.push({ number, value: message.subarray(offset, offset + size) });
      offset += size;
    } else if (wire === 2) {
      const length = Number(varint());
      fields.push({ number, value: message.subarray(offset, offset + length) });
      offset += length;
    } else throw new Error(`unexpected protobuf wire type ${wire}`);
  }
  return fields;
}
