package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/llmrt/llmrt/tools"
)

func ExampleFunc() {
	type convertArgs struct {
		Amount float64 `json:"amount" jsonschema:"the amount to convert"`
		From   string  `json:"from" jsonschema:"ISO 4217 code, e.g. EUR"`
		To     string  `json:"to,omitempty" jsonschema:"ISO 4217 code; USD when left out"`
	}
	convert, err := tools.Func("convert", "Convert an amount between currencies.", tools.KindRead,
		func(ctx context.Context, in convertArgs) (tools.Result, error) {
			if in.To == "" {
				in.To = "USD"
			}
			if in.From != "EUR" || in.To != "USD" {
				return tools.Errorf("only EUR to USD is known, not %s to %s", in.From, in.To), nil
			}
			return tools.JSON(map[string]any{"amount": in.Amount * 1.25, "currency": in.To}), nil
		})
	if err != nil {
		log.Fatal(err) // convertArgs has no JSON Schema
	}
	// The schema the model is offered and its calls are validated against.
	fmt.Println(string(convert.Schema))

	// A run validates the arguments first; Execute decodes them and calls
	// the function.
	for _, args := range []string{`{"amount":8,"from":"EUR"}`, `{"amount":8,"from":"GBP"}`} {
		res, err := convert.Execute(context.Background(), json.RawMessage(args))
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(res.IsError, res.Content)
	}
	// Output:
	// {"type":"object","properties":{"amount":{"type":"number","description":"the amount to convert"},"from":{"type":"string","description":"ISO 4217 code, e.g. EUR"},"to":{"type":"string","description":"ISO 4217 code; USD when left out"}},"required":["amount","from"],"additionalProperties":false}
	// false {"amount":10,"currency":"USD"}
	// true only EUR to USD is known, not GBP to USD
}
