package el

import (
	"reflect"
	"strconv"
)

// index applies a[b] and a.b with the JSP EL rules:
//   - a null base or a null key gives null;
//   - on a map, the entry for the key, or null if there is none (like Java's Map.get, a key of
//     another type than the map's keys finds nothing: m[1] on a string-keyed map is null);
//   - on a slice or array, the key is coerced to an int; out of range gives null;
//   - anything else is an error.
func index(base, key any) (any, error) {
	if base == nil || key == nil {
		return nil, nil
	}
	switch m := base.(type) {
	case map[string]string:
		k, ok := key.(string)
		if !ok {
			return nil, nil
		}
		if v, ok := m[k]; ok {
			return v, nil
		}
		return nil, nil
	case map[string]any:
		k, ok := key.(string)
		if !ok {
			return nil, nil
		}
		return m[k], nil
	case []string:
		i, err := listIndex(key)
		if err != nil || i < 0 || i >= len(m) {
			return nil, err
		}
		return m[i], nil
	case []any:
		i, err := listIndex(key)
		if err != nil || i < 0 || i >= len(m) {
			return nil, err
		}
		return m[i], nil
	}
	rv := reflect.ValueOf(base)
	switch rv.Kind() {
	case reflect.Map:
		kv := reflect.ValueOf(key)
		kt := rv.Type().Key()
		switch {
		case !kv.Comparable():
			return nil, nil
		case kv.Type().AssignableTo(kt):
		case kv.Kind() == reflect.String && kt.Kind() == reflect.String:
			kv = kv.Convert(kt)
		default:
			return nil, nil
		}
		v := rv.MapIndex(kv)
		if !v.IsValid() {
			return nil, nil
		}
		return v.Interface(), nil
	case reflect.Slice, reflect.Array:
		i, err := listIndex(key)
		if err != nil || i < 0 || i >= rv.Len() {
			return nil, err
		}
		return rv.Index(i).Interface(), nil
	}
	return nil, &coercionError{"cannot get " + strconv.Quote(ToString(key)) + " from " + describe(base)}
}

// listIndex coerces a list index as EL does (to a Java int): integers wrap to 32 bits,
// floats truncate, booleans are 1 and 0, strings must be decimal integers.
func listIndex(key any) (int, error) {
	switch x := key.(type) {
	case bool:
		return int(b2i(x)), nil
	case string:
		n, err := strconv.ParseInt(x, 10, 32)
		if err != nil {
			return 0, &coercionError{"cannot use " + describe(x) + " as a list index"}
		}
		return int(n), nil
	}
	switch classify(key) {
	case intNumber:
		return int(int32(intValue(key))), nil
	case floatNumber:
		f, _ := ToFloat(key)
		return int(javaInt(f)), nil
	}
	return 0, &coercionError{"cannot use " + describe(key) + " as a list index"}
}
