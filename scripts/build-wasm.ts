console.log("wasm build placeholder")
