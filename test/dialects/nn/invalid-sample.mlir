// Sampling ops (GridSample): ranks, shapes, types, attributes.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @grid_mode(%x: tensor<1x2x4x4xf32>, %g: tensor<1x3x3x2xf32>) {
  // expected-error@+1 {{'nn.grid_sample' op attribute 'mode' is "area"; expected one of bilinear|nearest|bicubic|linear|cubic}}
  %y = "nn.grid_sample"(%x, %g) {mode = "area"} : (tensor<1x2x4x4xf32>, tensor<1x3x3x2xf32>) -> tensor<1x2x3x3xf32>
  return
}

// -----

func.func @grid_padding(%x: tensor<1x2x4x4xf32>, %g: tensor<1x3x3x2xf32>) {
  // expected-error@+1 {{'nn.grid_sample' op attribute 'padding_mode' is "wrap"; expected one of zeros|border|reflection}}
  %y = "nn.grid_sample"(%x, %g) {padding_mode = "wrap"} : (tensor<1x2x4x4xf32>, tensor<1x3x3x2xf32>) -> tensor<1x2x3x3xf32>
  return
}

// -----

func.func @grid_align(%x: tensor<1x2x4x4xf32>, %g: tensor<1x3x3x2xf32>) {
  // expected-error@+1 {{'nn.grid_sample' op attribute 'align_corners' must be 0 or 1}}
  %y = "nn.grid_sample"(%x, %g) {align_corners = 2 : i64} : (tensor<1x2x4x4xf32>, tensor<1x3x3x2xf32>) -> tensor<1x2x3x3xf32>
  return
}

// -----

func.func @grid_rank(%x: tensor<1x2x2x2x2x2xf32>, %g: tensor<1x1x1x1x1x4xf32>) {
  // expected-error@+1 {{'nn.grid_sample' op operand 'x' must have rank 3 to 5 (N x C x 1 to 3 spatial dims)}}
  %y = "nn.grid_sample"(%x, %g) : (tensor<1x2x2x2x2x2xf32>, tensor<1x1x1x1x1x4xf32>) -> tensor<1x2x1x1x1x1xf32>
  return
}

// -----

func.func @grid_last_dim(%x: tensor<1x2x4x4xf32>, %g: tensor<1x3x3x3xf32>) {
  // expected-error@+1 {{'nn.grid_sample' op operand 'grid' of type tensor<1x3x3x3xf32> must be [N, out spatial dims..., 2] for an x of rank 4}}
  %y = "nn.grid_sample"(%x, %g) : (tensor<1x2x4x4xf32>, tensor<1x3x3x3xf32>) -> tensor<1x2x3x3xf32>
  return
}

// -----

func.func @grid_batch(%x: tensor<2x2x4x4xf32>, %g: tensor<1x3x3x2xf32>) {
  // expected-error@+1 {{'nn.grid_sample' op operands 'x' and 'grid' must have the same batch size (2 vs 1)}}
  %y = "nn.grid_sample"(%x, %g) : (tensor<2x2x4x4xf32>, tensor<1x3x3x2xf32>) -> tensor<2x2x3x3xf32>
  return
}

// -----

func.func @grid_int(%x: tensor<1x2x4x4xi32>, %g: tensor<1x3x3x2xi32>) {
  // expected-error@+1 {{'nn.grid_sample' op operand 'x' has element type i32; allowed: f32, f64, f16}}
  %y = "nn.grid_sample"(%x, %g) : (tensor<1x2x4x4xi32>, tensor<1x3x3x2xi32>) -> tensor<1x2x3x3xi32>
  return
}

// -----

func.func @grid_types(%x: tensor<1x2x4x4xf32>, %g: tensor<1x3x3x2xf64>) {
  // expected-error@+1 {{'nn.grid_sample' op operand 'grid' has element type f64, expected f32 like operand 'x'}}
  %y = "nn.grid_sample"(%x, %g) : (tensor<1x2x4x4xf32>, tensor<1x3x3x2xf64>) -> tensor<1x2x3x3xf32>
  return
}

// -----

func.func @grid_result(%x: tensor<1x2x4x4xf32>, %g: tensor<1x3x3x2xf32>) {
  // expected-error@+1 {{'nn.grid_sample' op result type tensor<1x2x4x4xf32> does not match the inferred type tensor<1x2x3x3xf32>}}
  %y = "nn.grid_sample"(%x, %g) : (tensor<1x2x4x4xf32>, tensor<1x3x3x2xf32>) -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @roi_mode(%x: tensor<1x2x4x4xf32>, %r: tensor<3x4xf32>, %b: tensor<3xi64>) {
  // expected-error@+1 {{'nn.roi_align' op attribute 'mode' is "sum"; expected one of avg|max}}
  %y = "nn.roi_align"(%x, %r, %b) {mode = "sum"} : (tensor<1x2x4x4xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x2x1x1xf32>
  return
}

// -----

func.func @roi_coord(%x: tensor<1x2x4x4xf32>, %r: tensor<3x4xf32>, %b: tensor<3xi64>) {
  // expected-error@+1 {{'nn.roi_align' op attribute 'coordinate_transformation_mode' is "asymmetric"; expected one of half_pixel|output_half_pixel}}
  %y = "nn.roi_align"(%x, %r, %b) {coordinate_transformation_mode = "asymmetric"} : (tensor<1x2x4x4xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x2x1x1xf32>
  return
}

// -----

func.func @roi_output(%x: tensor<1x2x4x4xf32>, %r: tensor<3x4xf32>, %b: tensor<3xi64>) {
  // expected-error@+1 {{'nn.roi_align' op attributes 'output_height' and 'output_width' must be positive and 'sampling_ratio' not negative}}
  %y = "nn.roi_align"(%x, %r, %b) {output_height = 0 : i64} : (tensor<1x2x4x4xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x2x0x1xf32>
  return
}

// -----

func.func @roi_sampling(%x: tensor<1x2x4x4xf32>, %r: tensor<3x4xf32>, %b: tensor<3xi64>) {
  // expected-error@+1 {{'nn.roi_align' op attributes 'output_height' and 'output_width' must be positive and 'sampling_ratio' not negative}}
  %y = "nn.roi_align"(%x, %r, %b) {sampling_ratio = -1 : i64} : (tensor<1x2x4x4xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x2x1x1xf32>
  return
}

// -----

func.func @roi_rank(%x: tensor<2x4x4xf32>, %r: tensor<3x4xf32>, %b: tensor<3xi64>) {
  // expected-error@+1 {{'nn.roi_align' op operand 'x' of type tensor<2x4x4xf32> must be 4-D (N, C, H, W)}}
  %y = "nn.roi_align"(%x, %r, %b) : (tensor<2x4x4xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x2x1x1xf32>
  return
}

// -----

func.func @roi_rois(%x: tensor<1x2x4x4xf32>, %r: tensor<3x5xf32>, %b: tensor<3xi64>) {
  // expected-error@+1 {{'nn.roi_align' op operand 'rois' of type tensor<3x5xf32> must be [num_rois, 4]}}
  %y = "nn.roi_align"(%x, %r, %b) : (tensor<1x2x4x4xf32>, tensor<3x5xf32>, tensor<3xi64>) -> tensor<3x2x1x1xf32>
  return
}

// -----

func.func @roi_batch(%x: tensor<1x2x4x4xf32>, %r: tensor<3x4xf32>, %b: tensor<2xi64>) {
  // expected-error@+1 {{'nn.roi_align' op operand 'batch_indices' of type tensor<2xi64> must be [num_rois] (3)}}
  %y = "nn.roi_align"(%x, %r, %b) : (tensor<1x2x4x4xf32>, tensor<3x4xf32>, tensor<2xi64>) -> tensor<3x2x1x1xf32>
  return
}

// -----

func.func @roi_batch_type(%x: tensor<1x2x4x4xf32>, %r: tensor<3x4xf32>, %b: tensor<3xi32>) {
  // expected-error@+1 {{'nn.roi_align' op operand 'batch_indices' has element type i32; allowed: i64}}
  %y = "nn.roi_align"(%x, %r, %b) : (tensor<1x2x4x4xf32>, tensor<3x4xf32>, tensor<3xi32>) -> tensor<3x2x1x1xf32>
  return
}
