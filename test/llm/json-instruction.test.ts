import { encode } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { TURN_ENVELOPE_JSON_SCHEMA } from '../../src/envelope/schema.js';
import { describedInPrompt, isDescribedInPrompt, jsonInstruction } from '../../src/llm/json-instruction.js';

describe('jsonInstruction', () => {
  it('says only "that JSON" when the prompt describes the shape, and the mark never reaches the wire', () => {
    const schema = describedInPrompt(TURN_ENVELOPE_JSON_SCHEMA);
    expect(isDescribedInPrompt(schema)).toBe(true);
    expect(isDescribedInPrompt(TURN_ENVELOPE_JSON_SCHEMA)).toBe(false);
    expect(jsonInstruction(schema)).toBe('Reply with the JSON object described above and nothing else.');
    expect(JSON.stringify(schema)).toBe(JSON.stringify(TURN_ENVELOPE_JSON_SCHEMA));
  });

  it('writes a schema as a one-line type, far shorter than the schema', () => {
    const instruction = jsonInstruction(TURN_ENVELOPE_JSON_SCHEMA);
    expect(instruction).toBe(
      'Reply with one JSON object and nothing else (no prose, no code fences), of this type: ' +
        '{todo:string,last?:boolean,replace?:{id:string,intent?:string,description?:string}[],' +
        'actions:{type:"narrate"|"tool"|"ask"|"task_finish",target?:string,text?:string,name?:string,args?:object,question?:string,summary?:string}[]}',
    );
    // Before: the schema went as JSON, about twice the tokens.
    expect(encode(instruction).length * 1.8).toBeLessThan(encode(JSON.stringify(TURN_ENVELOPE_JSON_SCHEMA)).length + 30);
  });

  it('renders unions, consts, nullable types and odd keys', () => {
    const schema = {
      type: 'object',
      properties: {
        'odd-key': { type: ['string', 'null'] },
        kind: { const: 'x' },
        list: { type: 'array', items: { anyOf: [{ type: 'integer' }, { type: 'boolean' }] } },
        any: {},
      },
      required: ['kind'],
      additionalProperties: false,
    };
    expect(jsonInstruction(schema)).toMatch(/of this type: \{"odd-key"\?:string\|null,kind:"x",list\?:\(integer\|boolean\)\[\],any\?:any\}$/);
  });

  it('falls back to the JSON Schema for what a type cannot say', () => {
    for (const schema of [
      { type: 'array', minItems: 1, items: { type: 'string' } },
      { type: 'object', properties: { a: { type: 'string', description: 'the name' } } },
      { type: 'object', required: ['todos'] },
      { type: 'object', properties: {}, additionalProperties: { type: 'string' } },
    ]) {
      expect(jsonInstruction(schema)).toContain(`JSON Schema:\n${JSON.stringify(schema)}`);
    }
  });
});
